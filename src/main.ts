/**
 * The entry bin/ctxwrap.js calls. `ctxwrap -- cmd` and `ctxwrap -c '...'` on pipes (how an agent
 * runs every command) take a fast path that loads neither commander nor chalk; anything else,
 * or a terminal on stdout or stderr (colour, a status line), goes through commander (cli.ts).
 * `ctxwrap search` starts in search-main.ts instead (bin/ctxwrap.js chooses).
 */
import { isatty } from 'node:tty';
import { finish, ignoreOutputErrors, reportError } from './cli/exit.js';
import { parseFastArgs } from './cli/fast-args.js';
import { PLAIN, runAction } from './cli/run-action.js';

export async function main(argv: string[] = process.argv): Promise<void> {
  const fast = isatty(1) || isatty(2) ? undefined : parseFastArgs(argv.slice(2));
  if (!fast) return (await import('./cli.js')).main(argv);
  ignoreOutputErrors();
  let code: number;
  try {
    code = await runAction(fast.args, fast.opts, PLAIN);
  } catch (error) {
    code = reportError(error);
  }
  finish(code);
}
