/**
 * The search core: opens (or builds) the index of every result searched, resolves the query,
 * ranks windows (all query words first, then BM25+), keeps the best non-overlapping ones and
 * reads their lines back. Knows nothing of terminals or of how hits are printed.
 */
import type { Entry } from '../store/registry.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';
import { cleanLine } from '../summary/clean.js';
import type { Coverage } from './build.js';
import { CONTEXT, snippetRange } from './chunk.js';
import { type Postings, UnusableIndex } from './index-file.js';
import { type Candidate, pickBest, scoreWindows } from './rank.js';
import { type Leaf, noteTokens, resolve, type Source } from './resolve.js';
import { scanGaps } from './scan.js';
import { readLines, regionOf } from './snippet.js';
import { IndexStore } from './store.js';
import { findInside, holds } from './substring.js';
import { type QueryTerm, tokenizeLine } from './tokenize.js';

export interface HitLine {
  /** 1-based line number in the stored output. */
  n: number;
  /** The line, cleaned (cleanLine), not yet cut or escaped. */
  text: string;
  /** True when the line holds a query word. */
  match: boolean;
}

export interface Hit {
  entry: Entry;
  /** 1-based range of the lines shown; absent for a hit on the note only. */
  first?: number;
  last?: number;
  score: number;
  /** Query words found in the hit (or in its result's note) and how many there are. */
  found: number;
  of: number;
  lines: HitLine[];
  /** Tokens that matched (to place the cut of a long line around them). */
  tokens: string[];
  /** True for a line found by the streaming scan of a part of a large output not indexed. */
  scanned?: boolean;
  /** The result's note, if it has one. */
  note?: string;
}

export interface Outcome {
  /** Results searched. */
  searched: number;
  hits: Hit[];
  /** Further non-overlapping matches beyond the hits returned. */
  more: number;
  /** How many of those hold every query word found. */
  moreWithAll: number;
  /** Query words found nowhere. */
  absent: string[];
  /** Query words found only under near spellings, with those spellings. */
  fuzzy: { word: string; as: string[] }[];
  /** Indexes built (missing, stale or unusable) by this search. */
  built: number;
}

export interface SearchOptions {
  terms: QueryTerm[];
  limit: number;
  coverage: Coverage;
  /** Scan the unindexed middle of large outputs even when the indexes give enough hits. */
  scanAll: boolean;
  /** Every result id of the run directory (indexes of others are removed). */
  known: ReadonlySet<string>;
  /** A result's note (searched, and shown on its hits). */
  noteOf: (entry: Entry) => string | undefined;
  /** Masks a line about to be shown (credentials); gets the result, the line number, the text. */
  shield: (entry: Entry) => (line: number, text: string) => string;
}

interface Open {
  entry: Entry;
  source: Source;
}

function openAll(
  store: IndexStore,
  entries: Entry[],
  noteOf: SearchOptions['noteOf'],
): { open: Open[]; built: number } {
  const open: Open[] = [];
  let built = 0;
  for (const entry of entries) {
    if (entry.meta.binary) continue;
    const o = store.open(entry);
    if (!o) continue;
    if (o.built) built++;
    open.push({ entry, source: { reader: o.reader, noteTokens: noteTokens(noteOf(entry)) } });
    const swaps = store.takeSwaps();
    if (swaps.size > 0) for (const x of open) x.source.reader = swaps.get(x.entry.meta.id) ?? x.source.reader;
  }
  return { open, built };
}

/**
 * Runs `f`; an index found unusable while reading is rebuilt and `f` runs again, as often as
 * reading finds another broken one (a damaged pack breaks many): each round rebuilds at least
 * one from its output, so this ends.
 */
function withRebuild<T>(store: IndexStore, all: Open[], f: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return f();
    } catch (error) {
      if (!(error instanceof UnusableIndex)) throw error;
      const broken = all.filter((o) => o.source.reader.broken);
      if (attempt > all.length || (attempt > 0 && broken.length === 0)) throw error;
      for (const o of broken.length > 0 ? broken : all) {
        o.source.reader.close();
        const again = store.open(o.entry, true);
        if (again) o.source.reader = again.reader;
      }
    }
  }
}

/** Searches `entries` (already filtered: not expired, in scope). */
export async function search(dir: RunDir, entries: Entry[], opts: SearchOptions): Promise<Outcome> {
  const store = new IndexStore(dir, opts.coverage);
  await store.prebuild(entries);
  const { open, built } = openAll(store, entries, opts.noteOf);
  try {
    const sources = open.map((o) => o.source);
    const {
      resolved,
      picked,
      more: indexedMore,
      moreFull,
    } = withRebuild(store, open, () => {
      const inside = (words: string[]) => {
        const found = new Map<string, Map<number, Postings[]>>(words.map((w) => [w, new Map()]));
        if (words.length === 0) return found;
        open.forEach((o, i) => {
          const reader = o.source.reader;
          const path = resultPaths(dir, o.entry.meta.id).output;
          const inside = findInside(path, reader.header, reader.table(), words, (w) => reader.mayContain(w));
          for (const [word, p] of inside) found.get(word)!.set(i, [p]);
        });
        return found;
      };
      const resolved = resolve(sources, opts.terms, inside);
      const newer = (a: number, b: number) => open[a]!.entry.startedMs - open[b]!.entry.startedMs;
      return {
        resolved,
        ...pickBest(scoreWindows(sources, resolved.leaves), resolved.leaves, opts.limit, newer),
      };
    });
    const leaves = resolved.leaves;
    let more = indexedMore;
    const hits: Hit[] = [];
    for (const c of picked) {
      const hit = apart(hitOf(dir, open[c.src]!, c, leaves), hits);
      if (hit) hits.push(hit);
      else more++;
    }
    let absent = resolved.absent;
    const scanned = scanGaps(
      dir,
      open.map((o) => ({ entry: o.entry, header: o.source.reader.header })),
      resolved,
      opts,
      hits.length,
    );
    if (scanned.hits.length > 0 || scanned.found.size > 0) {
      absent = absent.filter((w) => !scanned.found.has(w));
      for (const h of scanned.hits) {
        if (hits.length < opts.limit) hits.push(h);
        else more++;
      }
    }
    return {
      searched: entries.length,
      hits: hits.map((h) => finished(h, opts)),
      more: hits.length === 0 ? 0 : more,
      moreWithAll: hits.length === 0 ? 0 : Math.min(moreFull, more),
      absent,
      fuzzy: leaves
        .filter((l) => l.how === 'fuzzy')
        .map((l) => ({ word: l.label, as: [...l.weights.keys()].slice(0, 3) })),
      built,
    };
  } finally {
    for (const o of open) o.source.reader.close();
    store.finish(opts.known);
    store.close();
  }
}

/** The hit as shown: its lines masked by the shield, its result's note attached. */
function finished(hit: Hit, opts: SearchOptions): Hit {
  const shield = opts.shield(hit.entry);
  const note = opts.noteOf(hit.entry);
  return {
    ...hit,
    lines: hit.lines.map((l) => ({ ...l, text: shield(l.n, l.text) })),
    ...(note ? { note } : {}),
  };
}

/**
 * The hit without the lines an earlier hit of the same result already shows (their context can
 * meet); undefined when none of its matching lines is left.
 */
function apart(hit: Hit, earlier: Hit[]): Hit | undefined {
  const shown = earlier.filter((h) => h.entry === hit.entry && h.first !== undefined);
  if (hit.first === undefined || shown.length === 0) return hit;
  const free = (n: number) => !shown.some((h) => n >= h.first! && n <= h.last!);
  const firstMatch = hit.lines.findIndex((l) => l.match && free(l.n));
  if (firstMatch === -1) return undefined;
  let a = firstMatch;
  let b = firstMatch;
  while (a > 0 && free(hit.lines[a - 1]!.n)) a--;
  while (b + 1 < hit.lines.length && free(hit.lines[b + 1]!.n)) b++;
  const lines = hit.lines.slice(a, b + 1);
  return { ...hit, lines, first: lines[0]!.n, last: lines[lines.length - 1]!.n };
}

function hitOf(dir: RunDir, o: Open, c: Candidate, leaves: Leaf[]): Hit {
  const of = leaves.length;
  const tokens = new Set<string>();
  const inside: string[] = [];
  leaves.forEach((leaf, i) => {
    if (!(c.mask & (1 << i))) return;
    if (leaf.how === 'inside') inside.push(leaf.label);
    else for (const t of leaf.weights.keys()) tokens.add(t);
  });
  let found = 0;
  for (let m = c.mask; m; m &= m - 1) found++;
  const base = {
    entry: o.entry,
    score: c.score,
    found,
    of,
    tokens: [...inside, ...[...tokens].slice(0, 64)],
  };
  if (c.block < 0) return { ...base, lines: [] };
  const reader = o.source.reader;
  const table = reader.table();
  const header = reader.header;
  const start = table.line(c.block);
  const adjacent = c.block + 1 < header.blocks && start + table.lines(c.block) === table.line(c.block + 1);
  const end = start + table.lines(c.block) + (adjacent ? table.lines(c.block + 1) : 0) - 1;
  const region = regionOf(header, start);
  const lo = region ? region.firstLine : start;
  const hi = region ? region.firstLine + region.lines - 1 : end;
  const path = resultPaths(dir, o.entry.meta.id).output;
  // Read the window with room for context once; find its matching lines; show around them.
  const from = Math.max(lo, start - CONTEXT);
  const text = readLines(path, header, table, from, Math.min(hi, end + CONTEXT)).map(cleanLine);
  const matching: number[] = [];
  for (let n = start; n <= end && n - from < text.length; n++) {
    const line = text[n - from]!;
    let hit = inside.some((w) => holds(line, w));
    tokenizeLine(line, (t) => {
      if (!hit && tokens.has(t)) hit = true;
    });
    if (hit) matching.push(n + 1);
  }
  const range = snippetRange(matching.length > 0 ? matching : [start + 1], from + text.length);
  const first = Math.max(range.first, from + 1);
  const shown = text.slice(first - 1 - from, range.last - from);
  const matched = new Set(matching);
  return {
    ...base,
    first,
    last: first + shown.length - 1,
    lines: shown.map((text, i) => ({ n: first + i, text, match: matched.has(first + i) })),
  };
}
