/** `ctxwrap search <words...>`: ranked lines across every stored result. */
import { type Common, colorize, type Declare, out, runDirFlag, withRunDir } from './io.js';

interface SearchCliOptions extends Common {
  id?: string;
  in?: string;
  limit?: string;
  maxChars?: string;
  json?: boolean;
  /** False with --no-redact. */
  redact?: boolean;
}

export const declareSearch: Declare = (program, { setExit }) => {
  withRunDir(
    program
      .command('search')
      .description('find lines across every stored result: ranked, bounded, with line numbers')
      .argument('<words...>', 'what to look for, in plain words (identifiers, paths and error codes too)')
      .option('--id <id>', 'search this result only')
      .option('--in <glob>', "search the results whose id matches a glob ('tsc_*', '{npm,tsc}_*')")
      .option('--limit <n>', 'most hits to print (default 5)')
      .option('--max-chars <n>', 'most characters to print in all (default 4000)')
      .option('--json', 'print the hits as one JSON object')
      .option('--no-redact', 'show credentials as stored (masked by default)')
      .addHelpText(
        'after',
        '\nExit status: 0 when something matched, 1 when nothing did, 2 for bad input.\n\nExamples:\n  ctxwrap search connection refused postgres\n  ctxwrap search TS2345 --id tsc_81c0aa12\n  ctxwrap search "flaky timeout" --limit 3 --json\n  ctxwrap search TS2345 --in \'tsc_*\'',
      ),
  ).action(async (words: string[], opts: SearchCliOptions, cmd) => {
    const { runSearch } = await import('./fast-search.js');
    const flags = {
      ...opts,
      runDir: runDirFlag(cmd, opts),
      json: opts.json === true,
      redact: opts.redact !== false,
    };
    setExit(await runSearch(words, flags, (t) => out(opts.json ? t : colorize(t))));
  });
};
