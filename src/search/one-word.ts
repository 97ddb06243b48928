/**
 * The candidate windows of a query of one word. Its windows all hold the one word, so they are
 * alike but for the recency of their output and their place in it: every window of a newer
 * output comes before any of an older one, and in one output those nearest its first or its
 * last readable window come first. So only the newest outputs' windows are listed, as many as
 * make `k`, not the 10^5 windows of a common word (the same choice as candidates.ts's choose).
 */
import { BLOCK } from './scan.js';
import type { Matched, Source } from './types.js';

/** A window chosen: its output, its first block, its pre-rank key. */
export interface Pick {
  src: number;
  win: number;
  key: number;
}

/** Per output, its place among the outputs by start time (0 the oldest; ties in order given). */
export function recencyRank(sources: Source[]): Float64Array {
  const recency = sources
    .map((_, i) => i)
    .sort((a, b) => sources[a]!.entry.startedMs - sources[b]!.entry.startedMs);
  const rank = new Float64Array(sources.length);
  recency.forEach((s, r) => {
    rank[s] = r;
  });
  return rank;
}

/** Every window of each text output holding the word (`column`), to count the hits not shown. */
export function matchedOfOneWord(sources: Source[], column: number): Map<number, Matched> {
  const matched = new Map<number, Matched>();
  sources.forEach((s, i) => {
    const wins = s.scan.windows[column] ?? [];
    if (!s.scan.binary && wins.length > 0) matched.set(i, { windows: wins });
  });
  return matched;
}

/**
 * The windows of output `s` that can be read back (the window of a kept match's block and the
 * one before, that the word's list holds), ascending: its list walked once beside the kept
 * matches' blocks, sorted natively.
 */
function readable(s: Source, column: number): number[] {
  const wins = s.scan.windows[column] ?? [];
  const kept = s.scan.matches;
  const blocks = new Int32Array(kept.length);
  for (let q = 0; q < kept.length; q++) blocks[q] = Math.floor((kept[q]!.line - 1) / BLOCK);
  blocks.sort();
  const out: number[] = [];
  let j = 0;
  let next = 0;
  for (const b of blocks) {
    for (let x = Math.max(next, b - 1); x <= b; x++) {
      while (j < wins.length && wins[j]! < x) j++;
      if (wins[j] === x) out.push(x);
    }
    next = Math.max(next, b + 1);
  }
  return out;
}

/**
 * The best `k` windows (`key` each), in output order then window order: all of them when there
 * are no more than `k`; else the newest outputs' in turn, and of the output where `k` is reached,
 * those nearest its first or last readable window (with every window tied with the last taken).
 */
export function bestOfOneWord(sources: Source[], column: number, key: number, k: number): Pick[] {
  const rank = recencyRank(sources);
  const newestFirst = sources.map((_, i) => i).sort((a, b) => rank[b]! - rank[a]!);
  const taken: { src: number; wins: number[] }[] = [];
  let count = 0;
  for (const i of newestFirst) {
    const s = sources[i]!;
    if (s.scan.binary) continue;
    const wins = readable(s, column);
    if (wins.length === 0) continue;
    const room = k - count;
    taken.push({ src: i, wins: wins.length <= room ? wins : nearestEnds(wins, room) });
    count += wins.length;
    if (count >= k) break;
  }
  taken.sort((a, b) => a.src - b.src);
  return taken.flatMap(({ src, wins }) => wins.map((win) => ({ src, win, key })));
}

/** The `room` windows of `wins` (ascending) nearest its ends, and any tied with the last of them. */
function nearestEnds(wins: number[], room: number): number[] {
  const lo = wins[0]!;
  const hi = wins[wins.length - 1]!;
  const fromEnds = Float64Array.from(wins, (x) => Math.min(x - lo, hi - x));
  const most = fromEnds.slice().sort()[room - 1]!;
  return wins.filter((_, n) => fromEnds[n]! <= most);
}
