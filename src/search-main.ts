/**
 * The entry of dist/search.cjs, which bin/ctxwrap.js loads for `ctxwrap search`: on pipes (an
 * agent), the search without commander or chalk (see cli/fast-search.ts); on a terminal, or in
 * a form the fast path does not take, cli.ts.
 */
import { isatty } from 'node:tty';
import { finish, ignoreOutputErrors, reportError } from './cli/exit.js';
import { fastSearch, parseFastSearchArgs, runSearch } from './cli/fast-search.js';
import { importOutside } from './import-outside.js';

export async function main(argv: string[] = process.argv): Promise<void> {
  const args = isatty(1) || isatty(2) ? undefined : parseFastSearchArgs(argv.slice(2));
  if (!args) return (await importOutside('./cli.js', () => import('./cli.js'))).main(argv);
  ignoreOutputErrors();
  let code: number;
  try {
    code = await fastSearch(args);
  } catch (error) {
    code = reportError(error);
  }
  finish(code);
}

/**
 * Runs a few searches of the run directory `runDir`, printing nothing: scripts/search-cache.mjs
 * runs them once so that the code a search runs is compiled, and keeps it (code-cache.ts).
 */
export async function warmUp(runDir: string): Promise<void> {
  for (const words of [['connection', 'refused', 'postgres'], ['error'], ['zanzibar']])
    for (const json of [false, true]) await runSearch(words, { runDir, json, redact: true }, () => {});
}
