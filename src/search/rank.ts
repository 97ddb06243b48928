/**
 * Resolving query words against the indexes, and ranking windows with BM25+ (the formula and
 * parameters of minisearch: k = 1.2, b = 0.7, d = 0.5), computed from the on-disk postings with
 * the statistics of every result searched (so scores compare across results).
 *
 * A query word is looked up as a whole token and, from 3 characters, as a prefix (`build`
 * finds `builds`, `lobject.c:431` finds `lobject.c:431:37`); if that finds nothing it falls back
 * on its parts (`cors/index.ts` → `cors` + `index.ts`); if still nothing (4+ characters), on
 * the word inside longer tokens, found by a scan of the stored text (`refused` in
 * `ECONNREFUSED`); if still nothing, on near spellings (one edit, same first letter, words of 6+
 * letters without digits: `conection` → `connection`), shown as such and counting half when
 * ranking; if still nothing, it is absent: it matches no line and is reported as absent. A
 * query with no word found for real (exactly, by prefix, by parts or inside a token) has hits
 * only if every word has a near spelling; so words found nowhere never bring hits.
 */
import type { IndexReader, Postings } from './index-file.js';
import type { QueryTerm } from './tokenize.js';
import { tokensOf } from './tokenize.js';

const K = 1.2;
const B = 0.7;
const D = 0.5;
/** Weight of a token that only starts with the query word, scaled by how much of it matches. */
export const PREFIX_WEIGHT = 0.5;
/** Weight of a near spelling. */
export const FUZZY_WEIGHT = 0.45;
/** Most query words used (each must fit a bit of a mask). */
export const MAX_TERMS = 16;
const MIN_PREFIX = 3;
const MIN_FUZZY = 6;
const MIN_INSIDE = 4;
/** Score a note match adds to every window of its result. */
const NOTE_SCORE = 2;

/** One result being searched. */
export interface Source {
  reader: IndexReader;
  /** Tokens of the result's note, if it has one. */
  noteTokens: string[];
}

/** A query word as found: how, under which tokens, where. */
export interface Leaf {
  label: string;
  how: 'exact' | 'prefix' | 'inside' | 'fuzzy';
  /** Tokens it was found under, with their weights. */
  weights: Map<string, number>;
  /** Postings per source index. */
  postings: Map<number, Postings[]>;
  /** Sources whose note matches. */
  notes: Set<number>;
}

export interface Resolved {
  leaves: Leaf[];
  absent: string[];
}

export function weightOf(query: string, token: string): number {
  return token === query ? 1 : (PREFIX_WEIGHT * query.length) / token.length;
}

/** Edit distance of at most one (insertion, deletion, substitution or transposition). */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return a === b;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const fuzzyEligible = (t: string) => t.length >= MIN_FUZZY && /^[\p{L}]+$/u.test(t);

function lookup(sources: Source[], find: (r: IndexReader) => Postings[]): Map<number, Postings[]> {
  const found = new Map<number, Postings[]>();
  sources.forEach((s, i) => {
    const p = find(s.reader);
    if (p.length > 0) found.set(i, p);
  });
  return found;
}

function notesMatching(sources: Source[], test: (t: string) => boolean): Set<number> {
  const hits = new Set<number>();
  sources.forEach((s, i) => {
    if (s.noteTokens.some(test)) hits.add(i);
  });
  return hits;
}

function leafOf(
  label: string,
  how: Leaf['how'],
  postings: Map<number, Postings[]>,
  notes: Set<number>,
  weight: (t: string) => number,
): Leaf {
  const weights = new Map<string, number>();
  for (const list of postings.values()) for (const p of list) weights.set(p.term, weight(p.term));
  return { label, how, weights, postings, notes };
}

/** Finds words inside longer tokens: per word, per source index (one scan of the stored text). */
export type FindInside = (words: string[]) => Map<string, Map<number, Postings[]>>;

/** Resolves each query word against the sources; see the module comment for the order. */
export function resolve(sources: Source[], terms: QueryTerm[], inside?: FindInside): Resolved {
  const leaves: Leaf[] = [];
  const pending: string[] = [];
  const visit = (qt: QueryTerm) => {
    const t = qt.token;
    const mode = t.length >= MIN_PREFIX ? 'prefix' : 'exact';
    const found = lookup(sources, (r) => r.find(t, mode));
    const notes = notesMatching(sources, (n) => (mode === 'prefix' ? n.startsWith(t) : n === t));
    if (found.size > 0 || notes.size > 0) {
      const exactOnly = [...found.values()].every((l) => l.every((p) => p.term === t));
      leaves.push(leafOf(t, exactOnly ? 'exact' : 'prefix', found, notes, (x) => weightOf(t, x)));
    } else if (qt.parts.length > 0) {
      for (const p of qt.parts) visit(p);
    } else {
      pending.push(t);
    }
  };
  for (const qt of terms.slice(0, MAX_TERMS)) visit(qt);
  // Words no token equals or starts with: inside longer tokens (one scan for all), else near
  // spellings, else absent.
  const within = inside
    ? inside(pending.filter((t) => t.length >= MIN_INSIDE))
    : new Map<string, Map<number, Postings[]>>();
  const absent: string[] = [];
  for (const t of pending) {
    const found = within.get(t);
    if (found && found.size > 0) {
      leaves.push(leafOf(t, 'inside', found, new Set(), () => PREFIX_WEIGHT));
      continue;
    }
    if (fuzzyEligible(t)) {
      const near = (x: string) => withinOneEdit(t, x);
      const fuzzy = lookup(sources, (r) =>
        r.mayHoldNear(t) ? r.find(t[0] as string, 'prefix', 8, near) : [],
      );
      const fuzzyNotes = notesMatching(sources, near);
      if (fuzzy.size > 0 || fuzzyNotes.size > 0) {
        leaves.push(leafOf(t, 'fuzzy', fuzzy, fuzzyNotes, () => FUZZY_WEIGHT));
        continue;
      }
    }
    absent.push(t);
  }
  // Near spellings never stand in for words found nowhere: with no word found for real, they
  // count only if every word has one (a query typed with typos), else nothing matches.
  if (absent.length > 0 && leaves.every((l) => l.how === 'fuzzy')) {
    return { leaves: [], absent: [...leaves.map((l) => l.label), ...absent] };
  }
  return { leaves: leaves.slice(0, MAX_TERMS), absent };
}

/** The windows of one source that hold at least one query word. */
export interface Scored {
  src: number;
  /** First block of each window that matched (each once, in no order). */
  windows: number[];
  /** Per block: score and mask of leaves found of the window starting there. */
  score: Float64Array;
  mask: Int32Array;
  /** Mask of leaves found in the result's note. */
  noteMask: number;
}

function bits(m: number): number {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

function bm25(tf: number, len: number, avgLen: number, idf: number): number {
  return idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * len) / avgLen)));
}

/** Scores every window that holds at least one query word, in every source. */
export function scoreWindows(sources: Source[], leaves: Leaf[]): Scored[] {
  let blocks = 0;
  let tokens = 0;
  for (const s of sources) {
    blocks += s.reader.header.blocks;
    tokens += s.reader.header.tokens;
  }
  const avgLen = blocks > 0 ? (2 * tokens) / blocks : 1;
  const df = new Map<string, number>();
  for (const leaf of leaves) {
    for (const list of leaf.postings.values())
      for (const p of list) df.set(p.term, (df.get(p.term) ?? 0) + p.blocks.length);
  }
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (blocks - n + 0.5) / (n + 0.5));
  };
  const out: Scored[] = [];
  sources.forEach((source, src) => {
    let noteMask = 0;
    leaves.forEach((leaf, i) => {
      if (leaf.notes.has(src)) noteMask |= 1 << i;
    });
    if (noteMask === 0 && !leaves.some((l) => l.postings.has(src))) return;
    const n = source.reader.header.blocks;
    const table = source.reader.table();
    const adjacent = (k: number) => k + 1 < n && table.line(k) + table.lines(k) === table.line(k + 1);
    const score = new Float64Array(n);
    const mask = new Int32Array(n);
    const windows: number[] = [];
    leaves.forEach((leaf, i) => {
      const bit = 1 << i;
      for (const p of leaf.postings.get(src) ?? []) {
        const weight = leaf.weights.get(p.term) ?? 0;
        const w = idf(p.term);
        const add = (win: number, tf: number) => {
          const len = table.tokens(win) + (adjacent(win) ? table.tokens(win + 1) : 0);
          if (mask[win] === 0) windows.push(win);
          score[win]! += weight * bm25(tf, len, avgLen, w);
          mask[win]! |= bit;
        };
        const { blocks: bs, counts: cs } = p;
        for (let j = 0; j < bs.length; j++) {
          const b = bs[j]!;
          // The window starting at b holds blocks b and b + 1; the one at b - 1 holds b - 1 and b.
          add(b, cs[j]! + (j + 1 < bs.length && bs[j + 1] === b + 1 && adjacent(b) ? cs[j + 1]! : 0));
          if (b > 0 && bs[j - 1] !== b - 1 && adjacent(b - 1)) add(b - 1, cs[j]!);
        }
      }
    });
    if (windows.length > 0 || noteMask !== 0) out.push({ src, windows, score, mask, noteMask });
  });
  return out;
}

/** A window chosen as a hit: blocks `block` and, when adjacent, `block + 1`, of source `src`. */
export interface Candidate {
  src: number;
  /** First block of the window; -1 for a result that matched by its note only. */
  block: number;
  /** Bit i set when leaf i is found in the window (or in the result's note). */
  mask: number;
  /** Query words found, a near spelling counting half. */
  coverage: number;
  score: number;
}

/**
 * The best `limit` windows that do not share a block: those holding every query word found
 * first, then by score, then newer result first, then earlier in the output; and how many more
 * non-overlapping windows match (`moreFull` of them with every word).
 */
export function pickBest(
  scored: Scored[],
  leaves: Leaf[],
  limit: number,
  newer: (a: number, b: number) => number,
): { picked: Candidate[]; more: number; moreFull: number } {
  const worth = leaves.map((l) => (l.how === 'fuzzy' ? 0.5 : 1));
  const coverageOf = (m: number) => {
    let c = 0;
    for (let i = 0; m; i++, m >>>= 1) if (m & 1) c += worth[i]!;
    return c;
  };
  // Windows that hold every word found come first; the rest rank by score alone, where a rare
  // word (an identifier, an error code) outweighs two common ones.
  const full = worth.reduce((a, b) => a + b, 0);
  const tier = (c: Candidate) => (c.coverage >= full ? 1 : 0);
  const better = (a: Candidate, b: Candidate) =>
    tier(a) - tier(b) || a.score - b.score || newer(a.src, b.src) || b.src - a.src || b.block - a.block;
  // Every candidate once, flat; then the best few kept in a short sorted list, and hits taken
  // from it greedily (a window sharing a block with a hit is skipped). If overlaps use up the
  // list before `limit` hits, the list is made longer.
  const all: Candidate[] = [];
  for (const s of scored) {
    const noteScore = bits(s.noteMask) * NOTE_SCORE;
    if (s.windows.length === 0) {
      all.push({
        src: s.src,
        block: -1,
        mask: s.noteMask,
        coverage: coverageOf(s.noteMask),
        score: noteScore,
      });
    }
    for (const w of s.windows) {
      const mask = s.mask[w]! | s.noteMask;
      all.push({ src: s.src, block: w, mask, coverage: coverageOf(mask), score: s.score[w]! + noteScore });
    }
  }
  const taken = new Map<number, Set<number>>();
  const overlaps = (c: Candidate) => {
    const t = taken.get(c.src);
    return t !== undefined && (t.has(c.block) || t.has(c.block + 1) || c.block < 0);
  };
  let picked: Candidate[] = [];
  for (let room = limit * 4; ; room *= 4) {
    const top: Candidate[] = [];
    for (const c of all) {
      if (top.length === room && better(c, top[room - 1]!) <= 0) continue;
      let i = top.length;
      while (i > 0 && better(c, top[i - 1]!) > 0) i--;
      top.splice(i, 0, c);
      if (top.length > room) top.pop();
    }
    taken.clear();
    picked = [];
    for (const c of top) {
      if (picked.length === limit) break;
      if (overlaps(c)) continue;
      picked.push(c);
      const t = taken.get(c.src) ?? new Set<number>();
      t.add(c.block).add(c.block + 1);
      taken.set(c.src, t);
    }
    if (picked.length === limit || top.length < room) break;
  }
  // The rest: windows that share no block with a hit, counted without overlapping each other.
  let more = 0;
  let moreFull = 0;
  const count = (c: number) => {
    more++;
    if (c >= full) moreFull++;
  };
  for (const s of scored) {
    const t = taken.get(s.src);
    if (s.windows.length === 0) {
      if (!t) count(coverageOf(s.noteMask));
      continue;
    }
    let last = -2;
    for (const w of Uint32Array.from(s.windows).sort()) {
      if (t && (t.has(w) || t.has(w + 1))) continue;
      if (w > last + 1) {
        count(coverageOf(s.mask[w]! | s.noteMask));
        last = w;
      }
    }
  }
  return { picked, more, moreFull };
}

/** Note tokens for a source. */
export function noteTokens(note: string | undefined): string[] {
  return note ? tokensOf(note) : [];
}
