/**
 * `ctxwrap search <words...>`: find the places that match across every stored result that has
 * not expired (or one, with `--id`), ranked and bounded. Exit 0 with hits, 1 with none.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_MAX_CHARS } from '../config.js';
import { resolveTtl } from '../env.js';
import { CtxwrapError, EXIT_FAILURE, EXIT_USAGE } from '../errors.js';
import { type Coverage, DEFAULT_COVERAGE } from '../search/build.js';
import { renderHits, renderJson } from '../search/format.js';
import { search } from '../search/search.js';
import { queryTerms } from '../search/tokenize.js';
import { shieldFor } from '../shield.js';
import { ID_PATTERN, validateId } from '../store/ids.js';
import { record } from '../store/ledger.js';
import { isExpired, listEntries } from '../store/registry.js';
import { openRunDir, type RunDir } from '../store/run-dir.js';
import { readFileNoFollow } from '../store/safe-open.js';

export interface SearchCommandOptions {
  runDir: string;
  /** The words to look for, as typed. */
  query: string;
  /** Search this result only. */
  id?: string;
  /** Most hits printed (default 5). */
  limit?: number;
  /** Most characters printed in all (default 4000). */
  maxChars?: number;
  /** Print one JSON object instead of text. */
  json?: boolean;
  /** Mask credentials in the lines shown (default true). */
  redact?: boolean;
  /** How much of each output the index covers (default: its first and last 8 MiB). */
  coverage?: Coverage;
  /** Results older than this are not searched (default: CTXWRAP_TTL, else 7 days). */
  ttlMs?: number;
  print: (text: string) => void;
}

/**
 * The notes of a run directory: `<id>.note` beside the metadata (as `ctxwrap note` writes them),
 * read in one pass of the directory; a result without one falls back on `ResultMeta.note`.
 */
function notesIn(dir: RunDir): Map<string, string> {
  const notes = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(dir.results);
  } catch {
    return notes;
  }
  for (const name of names) {
    if (!name.endsWith('.note') || !ID_PATTERN.test(name.slice(0, -5))) continue;
    try {
      const text = readFileNoFollow(join(dir.results, name)).trim();
      if (text !== '') notes.set(name.slice(0, -5), text);
    } catch {
      /* removed meanwhile */
    }
  }
  return notes;
}

export async function searchResults(opts: SearchCommandOptions): Promise<number> {
  const terms = queryTerms(opts.query);
  if (terms.length === 0) {
    throw new CtxwrapError(
      `search needs words of at least 2 letters or digits (got '${opts.query.slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}')`,
      EXIT_USAGE,
    );
  }
  const id = opts.id === undefined ? undefined : validateId(opts.id);
  const limit = opts.limit ?? DEFAULT_SEARCH_LIMIT;
  const maxChars = opts.maxChars ?? DEFAULT_SEARCH_MAX_CHARS;
  const ttlMs = opts.ttlMs ?? resolveTtl();
  const dir = openRunDir(opts.runDir);
  const all = listEntries(dir);
  const now = Date.now();
  let scope = all.filter((e) => !isExpired(e, ttlMs, now));
  if (id !== undefined) {
    const entry = all.find((e) => e.meta.id === id);
    if (!entry) throw new CtxwrapError(`no result '${id}' in ${dir.root} (see 'ctxwrap list')`, EXIT_FAILURE);
    if (!scope.includes(entry))
      throw new CtxwrapError(
        `result '${id}' has expired (older than CTXWRAP_TTL); it is not searched`,
        EXIT_FAILURE,
      );
    scope = [entry];
  }
  const notes = notesIn(dir);
  const outcome = await search(dir, scope, {
    noteOf: (e) => notes.get(e.meta.id) ?? e.meta.note,
    shield: (e) => shieldFor(e.meta.keyRanges, opts.redact !== false),
    terms,
    limit,
    coverage: opts.coverage ?? DEFAULT_COVERAGE,
    scanAll: id !== undefined,
    known: new Set(all.map((e) => e.meta.id)),
  });
  const rendered = renderHits(opts.query, outcome, maxChars);
  const text = opts.json ? renderJson(opts.query, outcome, rendered) : rendered.text;
  opts.print(text);
  record(dir, { kind: 'search', ...(id !== undefined ? { id } : {}), bytes: Buffer.byteLength(text) });
  return rendered.shown.length > 0 ? 0 : EXIT_FAILURE;
}
