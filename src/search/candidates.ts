/**
 * Choosing the windows worth ranking from the scan's window lists, and reading them back.
 */

import { readAround, withFile } from './lines.js';
import { BLOCK } from './scan.js';
import { bits, type Candidate, type Matched, type Source, windowKey } from './types.js';

/**
 * Bytes read on each side of a match to rank its window: an 8-line window of ordinary lines is
 * well inside; a hit's lines are read again in full (AROUND) when it is shown.
 */
const RANK_AROUND = 1024;

/** The windows holding a line: the one starting at its block and the one before. */
const windowsOfLine = (line: number) => {
  const b = Math.floor((line - 1) / BLOCK);
  return b > 0 ? [b - 1, b] : [b];
};
const windowLines = (w: number) => ({ first: w * BLOCK + 1, last: (w + 2) * BLOCK });

/**
 * The windows worth ranking: those holding the most query words, rare words and many matches
 * first, newer results first (at most `k`), from the scan's complete window lists; each with
 * the matches the scan kept inside it, to read it back from. Also every matched window per
 * source (to count the hits not shown).
 */
export function pickCandidates(
  sources: Source[],
  column: number[],
  weight: number[],
  k: number,
  /** Decides binary on the content of an output holding candidates: true marks it so. */
  binaryAt: (src: number) => boolean = () => false,
): { candidates: Candidate[]; matched: Map<number, Matched> } {
  const found = windowsOf(sources, column, weight);
  let candidates = choose(sources, column, found, k);
  // Binary is decided on the outputs of the candidates (no hit shows binary): the windows of
  // those found binary are dropped and the best k chosen again among the others.
  const binary = new Set([...new Set(candidates.map((c) => c.src))].filter((i) => binaryAt(i)));
  if (binary.size > 0) {
    const keep = found.src.flatMap((i, j) => (binary.has(i) ? [] : [j]));
    for (const i of binary) found.matched.delete(i);
    found.src = keep.map((j) => found.src[j]!);
    found.win = keep.map((j) => found.win[j]!);
    found.key = keep.map((j) => found.key[j]!);
    candidates = choose(sources, column, found, k);
  }
  return { candidates, matched: found.matched };
}

/** Every readable window of the outputs that are not binary (`src`, `win`, `key` side by side). */
interface Found {
  src: number[];
  win: number[];
  key: number[];
  matched: Map<number, Matched>;
}

function windowsOf(sources: Source[], column: number[], weight: number[]): Found {
  const src: number[] = [];
  const win: number[] = [];
  const key: number[] = [];
  const matched = new Map<number, Matched>();
  sources.forEach((s, i) => {
    if (s.scan.binary || column.every((c) => (s.scan.windows[c]?.length ?? 0) === 0)) return;
    // A window is read back from the matches the scan kept in it: windows without one are left out.
    const lists = column.map((c) => s.scan.windows[c] ?? []);
    if (lists.length === 1) {
      // One word: its list as it is (a common word has 10^5 windows), walked once beside the
      // readable windows in ascending order (the window of a kept match's block and the one
      // before; a native sort of the blocks, as a common word keeps matches in every output).
      const wins = lists[0]!;
      const blocks = Int32Array.from(s.scan.matches, (m) => Math.floor((m.line - 1) / BLOCK)).sort();
      let j = 0;
      let next = 0;
      for (const b of blocks) {
        for (let x = Math.max(next, b - 1); x <= b; x++) {
          while (j < wins.length && wins[j]! < x) j++;
          if (wins[j] !== x) continue;
          src.push(i);
          win.push(x);
          key.push(1e4 + weight[0]!);
        }
        next = Math.max(next, b + 1);
      }
      if (wins.length > 0) matched.set(i, { windows: wins });
      return;
    }
    const keptBlocks = new Set(s.scan.matches.map((m) => Math.floor((m.line - 1) / BLOCK)));
    const readable = (x: number) => keptBlocks.has(x) || keptBlocks.has(x + 1);
    // The words' window lists (ascending) merged: each window once, with its mask and pre-score.
    const at = column.map(() => 0);
    const windows: number[] = [];
    const masks: number[] = [];
    for (;;) {
      let x = Number.POSITIVE_INFINITY;
      for (let w = 0; w < lists.length; w++) {
        const next = lists[w]![at[w]!];
        if (next !== undefined && next < x) x = next;
      }
      if (x === Number.POSITIVE_INFINITY) break;
      let m = 0;
      let pre = 0;
      for (let w = 0; w < lists.length; w++) {
        if (lists[w]![at[w]!] !== x) continue;
        at[w]!++;
        m |= 1 << w;
        pre += weight[w]!;
      }
      windows.push(x);
      masks.push(m);
      if (!readable(x)) continue;
      src.push(i);
      win.push(x);
      key.push(bits(m) * 1e4 + pre);
    }
    if (windows.length > 0) matched.set(i, { windows, masks });
  });
  return { src, win, key, matched };
}

/** The best `k` of the windows found, with the matches the scan kept inside them. */
function choose(sources: Source[], column: number[], found: Found, k: number): Candidate[] {
  const { src, win, key } = found;
  const recency = sources
    .map((_, i) => i)
    .sort((a, b) => sources[a]!.entry.startedMs - sources[b]!.entry.startedMs);
  const rank = new Float64Array(sources.length);
  recency.forEach((s, r) => {
    rank[s] = r;
  });
  // The best k: every window above the k-th key, then the ties newest first, earliest window first.
  let chosen: number[];
  if (key.length <= k) chosen = key.map((_, j) => j);
  else {
    const sorted = Float64Array.from(key).sort().reverse();
    const t = sorted[k - 1]!;
    chosen = [];
    const ties: number[] = [];
    key.forEach((v, j) => {
      if (v > t) chosen.push(j);
      else if (v === t) ties.push(j);
    });
    // Among the ties, the best `room` (a native sort of numbers: there may be 10^5 ties): newer
    // outputs first, and in one output the windows nearest its first or its last match first
    // (where a run starts and where it sums up), as a head and a tail would show.
    const room = k - chosen.length;
    const ends = new Map<number, [number, number]>();
    for (const j of ties) {
      const e = ends.get(src[j]!);
      if (!e) ends.set(src[j]!, [win[j]!, win[j]!]);
      else if (win[j]! < e[0]) e[0] = win[j]!;
      else if (win[j]! > e[1]) e[1] = win[j]!;
    }
    const fromEnds = (j: number) => {
      const [a, b] = ends.get(src[j]!)!;
      return Math.min(win[j]! - a, b - win[j]!);
    };
    const tie = Float64Array.from(ties, (j) => rank[src[j]!]! * 2 ** 31 + (2 ** 31 - 1 - fromEnds(j)));
    const least = Float64Array.from(tie).sort()[tie.length - room]!;
    ties.forEach((j, n) => {
      if (tie[n]! >= least) chosen.push(j);
    });
  }
  const byWindow = new Map<number, Candidate>();
  for (const j of chosen)
    byWindow.set(windowKey(src[j]!, win[j]!), {
      src: src[j]!,
      window: win[j]!,
      anchors: [],
      mask: 0,
      pre: key[j]!,
      score: 0,
      pieces: [],
      terms: new Set(),
    });
  const wordOf = new Map(column.map((c, w) => [c, w]));
  const bySrc = new Set(chosen.map((j) => src[j]!));
  for (const i of bySrc) {
    for (const m of sources[i]!.scan.matches) {
      if (!wordOf.has(m.word)) continue;
      for (const x of windowsOfLine(m.line)) {
        const c = byWindow.get(windowKey(i, x));
        // 16 per window, and one of each word beyond them: the rare word of a phrase inside a
        // long line full of a common one is read back too.
        if (
          c &&
          (c.anchors.length < 16 || (c.anchors.length < 32 && !c.anchors.some((a) => a.word === m.word)))
        )
          c.anchors.push(m);
      }
    }
  }
  return [...byWindow.values()].filter((c) => c.anchors.length > 0);
}

export function readPieces(sources: Source[], candidates: Candidate[]): void {
  const bySrc = new Map<number, Candidate[]>();
  for (const c of candidates) bySrc.set(c.src, [...(bySrc.get(c.src) ?? []), c]);
  for (const [i, list] of bySrc) {
    try {
      withFile(sources[i]!.path, (fd) => {
        for (const c of list) {
          const { first, last } = windowLines(c.window);
          c.pieces = readAround(fd, c.anchors, first, last, false, RANK_AROUND);
        }
      });
    } catch {
      /* removed meanwhile: its windows have no text and rank nowhere */
    }
  }
}
