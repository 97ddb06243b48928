/** `ctxwrap stats`: what the run directory saved. */
import { resolveTtl } from '../env.js';
import { type Common, type Declare, print, runDirOf, withRunDir } from './io.js';

export const declareStats: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('stats')
      .description('what the run directory saved: full output against what reached the agent')
      .option('--json', 'one JSON object, for programs')
      .addHelpText('after', '\nExamples:\n  ctxwrap stats\n  ctxwrap stats --json'),
  ).action(async (opts: Common & { json?: boolean }, cmd) => {
    const { showStats } = await import('../commands/stats.js');
    setExit(
      await showStats({ runDir: runDirOf(cmd, opts), json: opts.json === true, ttlMs: resolveTtl(), print }),
    );
  });
};
