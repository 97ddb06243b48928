/**
 * `ctxwrap search WORDS` on pipes (how an agent searches), run without commander or chalk: the
 * search's own time is a grep of every stored output, and commander's start-up came on top of
 * it. Only the simple forms are taken here (each option's value the next word, as commander
 * takes it); anything else (help, `--opt=value`, an unknown option, no words) is undefined and
 * goes through commander, which gives the same result or the usual error. Both paths run the
 * search through runSearch.
 */
import { resolveSearchConfig } from '../config.js';

const VALUES: Record<string, 'runDir' | 'id' | 'in' | 'limit' | 'maxChars'> = {
  '--run-dir': 'runDir',
  '--id': 'id',
  '--in': 'in',
  '--limit': 'limit',
  '--max-chars': 'maxChars',
};

export interface FastSearchArgs {
  words: string[];
  runDir?: string;
  id?: string;
  in?: string;
  limit?: string;
  maxChars?: string;
  json: boolean;
  redact: boolean;
}

/**
 * Parses `[--run-dir D] search [options] words... [-- words...]` (argv without node and the
 * script), or undefined when commander should.
 */
export function parseFastSearchArgs(argv: readonly string[]): FastSearchArgs | undefined {
  let i = 0;
  const parsed: FastSearchArgs = { words: [], json: false, redact: true };
  if (argv[i] === '--run-dir') {
    if (argv[i + 1] === undefined) return undefined;
    parsed.runDir = argv[i + 1];
    i += 2;
  }
  if (argv[i++] !== 'search') return undefined;
  while (i < argv.length) {
    const word = argv[i++] as string;
    if (word === '--') {
      parsed.words.push(...argv.slice(i));
      break;
    }
    const key = VALUES[word];
    if (key !== undefined) {
      const value = argv[i++];
      if (value === undefined) return undefined;
      parsed[key] = value;
    } else if (word === '--json') parsed.json = true;
    else if (word === '--no-redact') parsed.redact = false;
    else if (word.length > 1 && word.startsWith('-')) return undefined;
    else parsed.words.push(word);
  }
  return parsed.words.length > 0 ? parsed : undefined;
}

/** The flags of a search, as both paths parse them (values as typed). */
export type SearchFlags = Omit<FastSearchArgs, 'words'>;

/** Runs a search of `words` (both paths); prints through `print`; the exit status (errors are thrown). */
export async function runSearch(
  words: string[],
  flags: SearchFlags,
  print: (text: string) => void,
): Promise<number> {
  const config = resolveSearchConfig(flags);
  const { searchResults } = await import('../commands/search.js');
  const { resolveTtl } = await import('../env.js');
  return searchResults({
    runDir: config.runDir,
    query: words.join(' '),
    ...(flags.id !== undefined ? { id: flags.id } : {}),
    ...(flags.in !== undefined ? { in: flags.in } : {}),
    limit: config.limit,
    maxChars: config.maxChars,
    json: flags.json,
    redact: flags.redact,
    scan: config.scan,
    ttlMs: resolveTtl(),
    print,
  });
}

/** Runs a search parsed by parseFastSearchArgs, printing plain text. */
export const fastSearch = ({ words, ...flags }: FastSearchArgs) =>
  runSearch(words, flags, (t) => {
    process.stdout.write(t);
  });
