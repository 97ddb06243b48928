/** `ctxwrap clean`: remove results past their time to live. */
import { envText, resolveTtl } from '../env.js';
import { parseDuration } from '../parse-duration.js';
import { type Common, type Declare, print, runDirOf, withRunDir } from './io.js';

export const declareClean: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('clean')
      .description('remove results older than the time to live (never one still running)')
      .option(
        '--older-than <duration>',
        'age of the results to remove: 30m, 2h, 7d (default: CTXWRAP_TTL, else 7d)',
      )
      .option('--all', 'remove every result and the run directory (end of a session)')
      .option('--dry-run', 'list what would be removed, with sizes, and remove nothing')
      .addHelpText(
        'after',
        '\nExamples:\n  ctxwrap clean --older-than 2h --dry-run\n  ctxwrap clean --all     # at the end of a session',
      ),
  ).action(async (opts: Common & { olderThan?: string; all?: boolean; dryRun?: boolean }, cmd) => {
    const { cleanResults } = await import('../commands/clean.js');
    const runDir = runDirOf(cmd, opts);
    const olderThanMs =
      opts.olderThan !== undefined ? parseDuration(opts.olderThan, '--older-than') : resolveTtl();
    setExit(
      await cleanResults({
        runDir,
        olderThanMs,
        olderThanText: opts.olderThan ?? envText(process.env, 'CTXWRAP_TTL') ?? '7d',
        all: opts.all === true,
        dryRun: opts.dryRun === true,
        print,
      }),
    );
  });
};
