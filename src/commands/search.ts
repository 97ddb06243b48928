/**
 * `ctxwrap search <words...>`: find the places that match across every stored result that has
 * not expired (or one, with `--id`), ranked and bounded. Exit 0 with hits, 1 with none.
 */
import { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_MAX_CHARS } from '../config.js';
import { resolveTtl } from '../env.js';
import { CtxwrapError, EXIT_FAILURE, EXIT_USAGE } from '../errors.js';
import { formatBytes } from '../format.js';
import { importOutside } from '../import-outside.js';
import { commandOf, renderHits, renderJson } from '../search/format.js';
import { longLined } from '../search/long-lines.js';
import { type EarlyScan, search, startScan } from '../search/search.js';
import { queryTerms } from '../search/tokenize.js';
import { shieldFor } from '../shield.js';
import { ID_PATTERN, validateId } from '../store/ids.js';
import { record } from '../store/ledger.js';
import { type Entry, isExpired, listEntries, listEntriesYielding } from '../store/registry.js';
import { type ResultFile, resultFiles } from '../store/result-files.js';
import { openRunDir, type RunDir } from '../store/run-dir.js';
import { readFileNoFollow } from '../store/safe-open.js';

/** Most hits one search returns (the CLI and the MCP tool alike). */
const MAX_SEARCH_LIMIT = 100;

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
  /** Search only the results whose id matches this glob (`tsc_*`). */
  in?: string;
  /** How outputs are scanned: spawned grep (default; JS when it cannot run) or JS. */
  scan?: 'grep' | 'js';
  /** Results older than this are not searched (default: CTXWRAP_TTL, else 7 days). */
  ttlMs?: number;
  print: (text: string) => void;
}

/**
 * The notes of a run directory: `<id>.note` beside the metadata (as `ctxwrap note` writes them),
 * read in one pass of the directory; a result without one falls back on `ResultMeta.note`.
 */
function notesIn(files: ResultFile[]): Map<string, string> {
  const notes = new Map<string, string>();
  for (const { id, suffix, path } of files) {
    if (suffix !== 'note') continue;
    try {
      const text = readFileNoFollow(path).trim();
      if (text !== '') notes.set(id, text);
    } catch {
      /* removed meanwhile */
    }
  }
  return notes;
}

/**
 * The ids of the results whose id matches `glob` (fast-glob syntax over the names of the stored
 * outputs: `tsc_*`, `{npm,tsc}_*`, `*_8f*`). A pattern that could name anything but an id is refused.
 */
async function idsMatching(dir: RunDir, glob: string): Promise<Set<string>> {
  if (glob === '' || /[/\\]/.test(glob) || glob.startsWith('.') || glob.length > 200)
    throw new CtxwrapError(
      `--in takes a pattern of result ids such as 'tsc_*' or '{npm,tsc}_*' (got '${glob.slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}')`,
      EXIT_USAGE,
    );
  const fg = (await importOutside('fast-glob', () => import('fast-glob'))).default;
  let names: string[];
  try {
    names = fg.sync(`${glob}.txt`, {
      cwd: dir.results,
      onlyFiles: true,
      deep: 1,
      dot: false,
      followSymbolicLinks: false,
    });
  } catch {
    names = [];
  }
  return new Set(names.map((n) => n.slice(0, -4)).filter((n) => ID_PATTERN.test(n)));
}

/**
 * One line naming the results searched whose stored output is not whole (cut by a cap, a floor
 * or a full disk; ctxwrap stopped before the command ended): a word that is not found may be in
 * the part that was not stored.
 */
function partialNote(scope: Entry[]): string {
  const partial = scope.flatMap(({ meta, state }) => {
    if (state === 'incomplete')
      return [`${meta.id} is incomplete (ctxwrap stopped before the command ended)`];
    if (
      state === 'complete' &&
      meta.storedBytes !== undefined &&
      meta.bytes !== undefined &&
      meta.storedBytes < meta.bytes
    )
      return [
        `${meta.id} is cut short (only ${formatBytes(meta.storedBytes)} of the ${formatBytes(meta.bytes)} output is stored)`,
      ];
    return [];
  });
  if (partial.length === 0) return '';
  const shown = partial.slice(0, 3).join('; ');
  const more = partial.length > 3 ? `; and ${partial.length - 3} more` : '';
  return `[ctxwrap search: ${shown}${more}: what was not stored is not searched]\n`;
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
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
    throw new CtxwrapError(
      `--limit takes a whole number from 1 to ${MAX_SEARCH_LIMIT} (got '${limit}')`,
      EXIT_USAGE,
    );
  const maxChars = opts.maxChars ?? DEFAULT_SEARCH_MAX_CHARS;
  const ttlMs = opts.ttlMs ?? resolveTtl();
  const dir = openRunDir(opts.runDir);
  const files = resultFiles(dir);
  const inScope = opts.in === undefined ? undefined : await idsMatching(dir, opts.in);
  // The grep scan of every output runs while the metadata is read (expired results found by
  // it are dropped below; one --id is scanned once it is known to be there).
  let scanned: EarlyScan | undefined;
  if (id === undefined && (opts.scan ?? 'grep') === 'grep') {
    const outputs = new Set(files.filter((f) => f.suffix === 'txt').map((f) => f.id));
    const ids = files
      .filter((f) => f.suffix === 'json' && outputs.has(f.id) && (!inScope || inScope.has(f.id)))
      .map((f) => f.id);
    scanned = startScan(dir, ids, terms);
  }
  const all = scanned ? await listEntriesYielding(files) : listEntries(dir);
  // Outputs of very long lines are scanned in JS (long-lines.ts): known once their metadata is
  // read, they are left to search's JS scan and the engine restarted without them (rare).
  const long = new Set(all.filter(longLined).map((e) => e.meta.id));
  if (scanned?.ids.some((i) => long.has(i))) {
    scanned.stop();
    scanned = startScan(
      dir,
      scanned.ids.filter((i) => !long.has(i)),
      terms,
    );
  }
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
  if (inScope) scope = scope.filter((e) => inScope.has(e.meta.id));
  const notes = notesIn(files);
  const outcome = await search(dir, scope, {
    scan: opts.scan ?? 'grep',
    noteOf: (e) => notes.get(e.meta.id) ?? e.meta.note,
    shield: (e) => shieldFor(e.meta.keyRanges, opts.redact !== false),
    commandOf: (e) => `${e.meta.cwd ?? ''}\n${commandOf(e.meta)}`,
    ...(scanned ? { scanned } : {}),
    terms,
    limit,
  });
  const rendered = renderHits(opts.query, outcome, maxChars);
  const text = opts.json ? renderJson(opts.query, outcome, rendered) : rendered.text + partialNote(scope);
  opts.print(text);
  record(dir, { kind: 'search', ...(id !== undefined ? { id } : {}), bytes: Buffer.byteLength(text) });
  return rendered.shown.length > 0 ? 0 : EXIT_FAILURE;
}
