/**
 * Choosing the windows worth ranking from the scan's window lists, and reading them back.
 */

import { readAround, withFile } from './lines.js';
import { bestOfOneWord, matchedOfOneWord, type Pick, recencyRank } from './one-word.js';
import { BLOCK } from './scan.js';
import { bits, type Candidate, type Matched, type Source } from './types.js';

/**
 * Bytes read on each side of a match to rank its window: an 8-line window of ordinary lines is
 * well inside; a hit's lines are read again in full (AROUND) when it is shown.
 */
const RANK_AROUND = 1024;

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
  // One word: every window alike but for recency and place, so only the newest outputs' windows
  // are listed (one-word.ts); else every window of every output.
  const best = () =>
    column.length === 1 ? bestOfOneWord(sources, column[0]!, 1e4 + weight[0]!, k) : undefined;
  const found = column.length === 1 ? undefined : windowsOf(sources, column, weight);
  const matched = found?.matched ?? matchedOfOneWord(sources, column[0]!);
  let candidates = withAnchors(sources, column, found ? choose(sources, found, k) : best()!);
  // Binary is decided on the outputs of the candidates (no hit shows binary): the windows of
  // those found binary are dropped and the best k chosen again among the others.
  const binary = new Set([...new Set(candidates.map((c) => c.src))].filter((i) => binaryAt(i)));
  if (binary.size > 0) {
    for (const i of binary) matched.delete(i);
    if (found) {
      const keep = found.src.flatMap((i, j) => (binary.has(i) ? [] : [j]));
      found.src = keep.map((j) => found.src[j]!);
      found.win = keep.map((j) => found.win[j]!);
      found.key = keep.map((j) => found.key[j]!);
    }
    // (One word: binaryAt marked those outputs binary, which bestOfOneWord passes over.)
    candidates = withAnchors(sources, column, found ? choose(sources, found, k) : best()!);
  }
  return { candidates, matched };
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
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (s.scan.binary) continue;
    const all = packedWindows(s, column);
    if (all.length === 0) continue;
    // A window is read back from the matches the scan kept in it: windows without one are left out.
    // (A loop: Int32Array.from with a map function takes a slow path, some 10 µs a call, cold.)
    const { matches } = s.scan;
    const kept = new Int32Array(matches.length);
    for (let q = 0; q < matches.length; q++) kept[q] = Math.floor((matches[q]!.line - 1) / BLOCK);
    kept.sort();
    // Each window once, ascending, with its mask and pre-score (words in order, as summed before).
    const windows: number[] = [];
    const masks: number[] = [];
    let j = 0;
    for (let q = 0; q < all.length; ) {
      const x = Math.floor(all[q]! / WORDS_MAX);
      let m = 0;
      let pre = 0;
      for (; q < all.length && all[q]! < (x + 1) * WORDS_MAX; q++) {
        const w = all[q]! - x * WORDS_MAX;
        m |= 1 << w;
        pre += weight[w]!;
      }
      windows.push(x);
      masks.push(m);
      // Readable: a kept match in its block or the next.
      while (j < kept.length && kept[j]! < x) j++;
      if (j === kept.length || kept[j]! > x + 1) continue;
      src.push(i);
      win.push(x);
      key.push(bits(m) * 1e4 + pre);
    }
    matched.set(i, { windows, masks });
  }
  return { src, win, key, matched };
}

/** Word indexes a packed window holds room for (masks are 32-bit: fewer words than that). */
const WORDS_MAX = 64;

/**
 * The windows of the words of `column` in output `s`, each as `window * WORDS_MAX + word`, sorted
 * (natively: one pass over them after, not a merge of the lists comparing every list per window).
 */
function packedWindows(s: Source, column: number[]): Float64Array {
  let n = 0;
  for (const c of column) n += s.scan.windows[c]?.length ?? 0;
  const all = new Float64Array(n);
  let k = 0;
  for (let w = 0; w < column.length; w++)
    for (const x of s.scan.windows[column[w]!] ?? []) all[k++] = x * WORDS_MAX + w;
  return all.sort();
}

/** The best `k` of the windows found (indexes into `found`, ascending). */
function choose(sources: Source[], found: Found, k: number): Pick[] {
  const { src, win, key } = found;
  const rank = recencyRank(sources);
  // The best k: every window above the k-th key, then the ties newest first, earliest window first.
  // Plain loops and native sorts of numbers: a common word has 10^5 windows, all alike.
  let chosen: number[];
  if (key.length <= k) chosen = key.map((_, j) => j);
  else {
    const t = new Float64Array(key).sort()[key.length - k]!;
    chosen = [];
    const ties: number[] = [];
    for (let j = 0; j < key.length; j++) {
      const v = key[j]!;
      if (v > t) chosen.push(j);
      else if (v === t) ties.push(j);
    }
    // Among the ties, the best `room` (a native sort of numbers: there may be 10^5 ties): newer
    // outputs first, and in one output the windows nearest its first or its last match first
    // (where a run starts and where it sums up), as a head and a tail would show.
    const room = k - chosen.length;
    const lo = new Int32Array(sources.length).fill(2 ** 31 - 1);
    const hi = new Int32Array(sources.length).fill(-1);
    for (const j of ties) {
      const i = src[j]!;
      if (win[j]! < lo[i]!) lo[i] = win[j]!;
      if (win[j]! > hi[i]!) hi[i] = win[j]!;
    }
    const tie = new Float64Array(ties.length);
    for (let n = 0; n < ties.length; n++) {
      const j = ties[n]!;
      const i = src[j]!;
      const fromEnds = Math.min(win[j]! - lo[i]!, hi[i]! - win[j]!);
      tie[n] = rank[i]! * 2 ** 31 + (2 ** 31 - 1 - fromEnds);
    }
    const least = tie.slice().sort()[tie.length - room]!;
    for (let n = 0; n < ties.length; n++) if (tie[n]! >= least) chosen.push(ties[n]!);
  }
  return chosen.map((j) => ({ src: src[j]!, win: win[j]!, key: key[j]! }));
}

/**
 * The candidates of `picks`, in their order, each with the matches the scan kept inside it (to
 * read it back from); those without one are left out.
 */
function withAnchors(sources: Source[], column: number[], picks: Pick[]): Candidate[] {
  // Per output, its chosen windows by first block (numbers as keys: no key made per match).
  const bySrc = new Map<number, Map<number, Candidate>>();
  const all: Candidate[] = [];
  for (const p of picks) {
    const c: Candidate = {
      src: p.src,
      window: p.win,
      anchors: [],
      mask: 0,
      pre: p.key,
      score: 0,
      pieces: [],
      terms: new Set(),
    };
    const own = bySrc.get(c.src) ?? new Map<number, Candidate>();
    bySrc.set(c.src, own.set(c.window, c));
    all.push(c);
  }
  const wordOf = new Set(column);
  for (const [i, own] of bySrc) {
    for (const m of sources[i]!.scan.matches) {
      if (!wordOf.has(m.word)) continue;
      // The windows holding the line: the one starting at its block and the one before.
      const b = Math.floor((m.line - 1) / BLOCK);
      for (let x = Math.max(0, b - 1); x <= b; x++) {
        const c = own.get(x);
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
  return all.filter((c) => c.anchors.length > 0);
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
