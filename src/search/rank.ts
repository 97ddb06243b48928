/**
 * Ranking: every window (two adjacent blocks) that holds a query word is scored with BM25+ (the
 * formula and parameters of minisearch: k = 1.2, b = 0.7, d = 0.5), computed from the on-disk
 * postings with the statistics of every result searched, so scores compare across results; then
 * the best windows that share no block are picked.
 */
import type { Leaf, Source } from './resolve.js';

const K = 1.2;
const B = 0.7;
const D = 0.5;
/** Score a note match adds to every window of its result. */
const NOTE_SCORE = 2;

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
          // A window that is one block (at the end of a region) counts as two of its kind, so that
          // it is not favoured for being short.
          const len = table.tokens(win) + (adjacent(win) ? table.tokens(win + 1) : table.tokens(win));
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
