/** `ctxwrap list`: the results of the run directory, newest first. */
import chalk from 'chalk';
import { resolveTtl } from '../env.js';
import { parseWhole } from '../parse-number.js';
import { type Common, type Declare, out, runDirOf, withRunDir } from './io.js';

export const declareList: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('list')
      .description('the results of the run directory, newest first (running and incomplete ones marked)')
      .option('--json', 'one JSON array, for programs')
      .option('--limit <n>', 'most results listed (default 50; 0: all)')
      .addHelpText('after', '\nExamples:\n  ctxwrap list\n  ctxwrap list --json --limit 0'),
  ).action(async (opts: Common & { json?: boolean; limit?: string }, cmd) => {
    const { listResults } = await import('../commands/list.js');
    const tty = process.stdout.isTTY && chalk.level > 0 && !opts.json;
    const outcomes = {
      ok: chalk.green,
      failed: chalk.red,
      running: chalk.yellow,
      incomplete: chalk.magenta,
      complete: chalk.green,
    };
    setExit(
      await listResults({
        runDir: runDirOf(cmd, opts),
        json: opts.json === true,
        ...(opts.limit !== undefined ? { limit: parseWhole(opts.limit, '--limit', 0) } : {}),
        ttlMs: resolveTtl(),
        print: out,
        ...(tty ? { paint: { dim: chalk.dim, outcome: (text, o) => outcomes[o](text) } } : {}),
      }),
    );
  });
};
