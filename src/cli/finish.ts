/**
 * `ctxwrap _finish <id> <status>` (hidden): the step the in-shell hook's wrapper runs after the
 * agent's shell ran the command into the result file: summarise it, complete its metadata, and
 * exit with the command's own status.
 */
import { type Common, type Declare, out, runDirFlag, withRunDir } from './io.js';

export const declareFinish: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('_finish', { hidden: true })
      .description("summarise a result the agent's shell wrote (run by the hook's wrapper)")
      .argument('<id>', 'the result id the hook allocated')
      .argument('<status>', "the command's exit status ($?)")
      .option('--view <filter>', 'the agent saw the output through this tail/head: print only the id line')
      .option('--reader <pid>', 'the process appending the output to the file: wait for it first'),
    true,
  ).action(async (id: string, status: string, opts: Common & { view?: string; reader?: string }, cmd) => {
    const { finishCommand } = await import('../commands/finish.js');
    const runDir = runDirFlag(cmd, opts);
    setExit(
      finishCommand({
        id,
        status,
        ...(runDir !== undefined ? { runDir } : {}),
        ...(opts.view !== undefined ? { view: opts.view } : {}),
        ...(opts.reader !== undefined ? { reader: opts.reader } : {}),
        env: process.env,
        print: out,
      }),
    );
  });
};
