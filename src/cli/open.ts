/** `ctxwrap open <id>`: page a stored output whole. */
import { type Common, type Declare, runDirOf, withRunDir } from './io.js';

export const declareOpen: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('open')
      .description(
        'page a stored output whole with $PAGER (default less -R); streams it when not on a terminal',
      )
      .argument('<id>', 'the result id, as printed in the summary header')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap open npm_3f2a9c1b\n  PAGER=most ctxwrap open npm_3f2a9c1b',
      ),
  ).action(async (id: string, opts: Common, cmd) => {
    const { openResult } = await import('../commands/open.js');
    const isTTY = process.stdout.isTTY === true;
    const runDir = runDirOf(cmd, opts);
    setExit(await openResult({ runDir, id, isTTY, pager: process.env.PAGER, output: process.stdout }));
  });
};
