/**
 * The search core, with no index: scan the outputs for the query words (scan.ts), count from the
 * scan how many windows of lines hold each word, read back the best candidate windows, rank them
 * with minisearch under those global statistics (rank.ts), keep the best windows that share no
 * lines, and collapse hits that are the same lines in re-runs of one command. Writes nothing.
 */
import { statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import type { Entry } from '../store/registry.js';
import type { RunDir } from '../store/run-dir.js';
import { cleanLine } from '../summary/clean.js';
import { snippetRange } from './chunk.js';
import { type Anchor, type Piece, readAround, withFile } from './lines.js';
import type { Doc, Word } from './rank.js';
import { chooseWords, literalsOf, nearEligible, withinOneEdit } from './resolve.js';
import { BLOCK, formsOf, isBinaryOutput, type Scanned, scanFile, scanWithGrep } from './scan.js';
import { type QueryTerm, tokenizeLine, tokensOf } from './tokenize.js';

/** Most windows read back and ranked by minisearch. */
export const MAX_CANDIDATES = 300;
/**
 * Windows ranked for `limit` hits: the scan's counts already order them (query words held,
 * rare words first, matches per window), so minisearch needs only the best few dozen to choose
 * the hits among (re-runs of one command collapse, so a hit may use up several).
 */
export const candidatesFor = (limit: number) => Math.min(MAX_CANDIDATES, Math.max(40, 10 * limit));
/**
 * Bytes read on each side of a match to rank its window: an 8-line window of ordinary lines is
 * well inside; a hit's lines are read again in full (AROUND) when it is shown.
 */
const RANK_AROUND = 1024;
/** Matches per window at which a word's count in the pre-ranking is half its weight. */
const SATURATION = 1.2;
/** Score a query word found in a result's note adds to its hits. */
const NOTE_SCORE = 2;

export interface HitLine {
  /** 1-based line number in the stored output. */
  n: number;
  /** The line (or the part of it read), cleaned, not yet cut or escaped. */
  text: string;
  /** True when the line holds a query word. */
  match: boolean;
  /** Bytes of the line left out before and after `text` (-1: very many). */
  before: number;
  after: number;
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
  /** Words and terms that matched (to place the cut of a long line around them). */
  tokens: string[];
  /** The result's note, if it has one. */
  note?: string;
  /** Runs of the same command whose output holds the same lines (this hit shows the newest). */
  runs: number;
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
}

export interface SearchOptions {
  terms: QueryTerm[];
  limit: number;
  /** A result's note (searched, and shown on its hits). */
  noteOf: (entry: Entry) => string | undefined;
  /** Masks a line about to be shown (credentials); gets the result, the line number, the text. */
  shield: (entry: Entry) => (line: number, text: string) => string;
  /** How outputs are scanned: by spawned grep processes (default, JS when grep fails) or in JS. */
  scan?: 'grep' | 'js';
  /** How a result's command is named (hits of re-runs of one command collapse). */
  commandOf: (entry: Entry) => string;
  /** A scan started before the entries were listed (see startScan); the others are scanned in JS. */
  scanned?: EarlyScan;
}

/** A grep scan of some outputs, started early (it runs while the metadata is read). */
export interface EarlyScan {
  ids: string[];
  /** Per id; undefined when grep could not run (then every output is scanned in JS). */
  scans: Promise<Scanned[] | undefined>;
}

/** Starts the grep scan of the outputs of `ids` for `terms` (see search's `scanned`). */
export function startScan(dir: RunDir, ids: string[], terms: QueryTerm[]): EarlyScan {
  const forms = literalsOf(terms).map((l) => formsOf(l));
  return {
    ids,
    scans: scanWithGrep(
      dir.results,
      ids.map((id) => `${id}.txt`),
      forms,
    ),
  };
}

interface Source {
  entry: Entry;
  path: string;
  scan: Scanned;
  /** Words (by index) found in the note. */
  noteMask: number;
}

interface Candidate {
  src: number;
  /** First block of the window; -1 for a result found by its note only. */
  window: number;
  anchors: Anchor[];
  mask: number;
  pre: number;
  score: number;
  pieces: Piece[];
  terms: Set<string>;
}

const bits = (m: number) => {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
};
const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

function noteMatches(note: string | undefined, word: Word): boolean {
  if (!note) return false;
  const tokens = tokensOf(note);
  if (word.near) return tokens.some((t) => word.near!.has(t));
  const w = word.label;
  return tokens.some(
    (t) => t === w || (w.length >= 3 && t.startsWith(w)) || (w.length >= 4 && t.includes(w)),
  );
}

/** Identifier-like words (digits, joiners) are more specific than plain ones, then longer ones. */
const specific = (w: string) => (/[\d.\-_/:@#]/.test(w) ? 1000 : 0) + w.length;

/** The windows holding a line: the one starting at its block and the one before. */
const windowsOfLine = (line: number) => {
  const b = Math.floor((line - 1) / BLOCK);
  return b > 0 ? [b - 1, b] : [b];
};
const windowLines = (w: number) => ({ first: w * BLOCK + 1, last: (w + 2) * BLOCK });

/** Tokens of the candidate windows within one edit of `word` (same first letter). */
function nearSpellings(word: string, docs: Doc[]): Set<string> {
  const near = new Set<string>();
  for (const d of docs)
    for (const line of d.lines)
      tokenizeLine(cleanLine(line), (t) => {
        if (t !== word && t[0] === word[0] && withinOneEdit(word, t)) near.add(t);
      });
  return near;
}

/**
 * The size of a stored output that grep scanned: as its metadata records it once complete (no
 * stat of every output before the ranking can start), else as it is now.
 */
function sizeOf(s: Source): number {
  const { meta } = s.entry;
  if (s.entry.state === 'complete' && meta.bytes !== undefined) return meta.storedBytes ?? meta.bytes;
  try {
    return statSync(s.path).size;
  } catch {
    return 0;
  }
}

/** Searches `entries` (already filtered: not expired, in scope). */
export async function search(dir: RunDir, entries: Entry[], opts: SearchOptions): Promise<Outcome> {
  const literals = literalsOf(opts.terms);
  // As resultPaths names them (the ids were checked when the entries were listed; no path.join,
  // see resultFiles).
  const paths = entries.map((e) => `${dir.results}${sep}${e.meta.id}.txt`);
  const forms = literals.map((l) => formsOf(l));
  // minisearch loads while grep runs: it is needed as soon as there is anything to rank.
  const ranking = import('./rank.js');
  ranking.catch(() => {});
  let scans: Scanned[] | undefined;
  if (opts.scanned) {
    const early = await opts.scanned.scans;
    const at = new Map(opts.scanned.ids.map((id, i) => [id, i]));
    // A result that the early scan did not cover (written since) is scanned here, in JS.
    if (early) scans = entries.map((e, i) => early[at.get(e.meta.id) ?? -1] ?? scanFile(paths[i]!, forms));
  } else if (opts.scan !== 'js') {
    scans = await scanWithGrep(
      dir.results,
      paths.map((p) => basename(p)),
      forms,
    );
  }
  scans ??= paths.map((p) => scanFile(p, forms));
  const notes = entries.map((e) => opts.noteOf(e));
  const inNotes = (t: string) => notes.some((n) => noteMatches(n, { label: t, df: 0 }));
  const foundAt = (i: number) => scans.some((s) => s.windows[i]!.length > 0);
  const chosen = chooseWords(opts.terms, (t) => foundAt(literals.indexOf(t)) || inNotes(t));
  // Literal index per word searched; near spellings come from a second pass.
  const words: Word[] = chosen.words.map((label) => ({
    label,
    df: scans.reduce((n, s) => n + s.windows[literals.indexOf(label)]!.length, 0),
  }));
  const column = chosen.words.map((w) => literals.indexOf(w));
  const none: Outcome = {
    searched: entries.length,
    hits: [],
    more: 0,
    moreWithAll: 0,
    absent: [...words.map((w) => w.label), ...chosen.absent],
    fuzzy: [],
  };
  if (words.length === 0) return none;

  const sources: Source[] = entries.map((entry, i) => ({
    entry,
    path: paths[i]!,
    scan: scans[i]!,
    noteMask: words.reduce((m, w, k) => (noteMatches(notes[i], w) ? m | (1 << k) : m), 0),
  }));
  // Global statistics: every window of every text output searched.
  let windows = 0;
  let bytes = 0;
  for (const s of sources) {
    if (s.scan.binary) continue;
    const size = s.scan.bytes || sizeOf(s);
    const lines = s.scan.lines ?? s.entry.meta.lines ?? Math.ceil(size / 80);
    windows += Math.max(1, Math.ceil(lines / BLOCK));
    bytes += size;
  }
  const weight = words.map((w) => idf(Math.max(windows, 1), Math.max(1, w.df)));
  // Binary is decided on the content of the outputs that have candidates (no hit shows binary).
  const k = candidatesFor(opts.limit);
  let { candidates, matched } = pickCandidates(sources, column, weight, k);
  let binary = false;
  for (const src of new Set(candidates.map((c) => c.src))) {
    if (sources[src]!.scan.binary || !isBinaryOutput(sources[src]!.path)) continue;
    sources[src]!.scan.binary = true;
    binary = true;
  }
  if (binary) ({ candidates, matched } = pickCandidates(sources, column, weight, k));
  readPieces(sources, candidates);
  const docs: Doc[] = candidates.map((c, id) => ({ id, lines: c.pieces.map((p) => p.text) }));
  // Words found nowhere may be typos of words in the candidate windows: near spellings there
  // (one edit, same first letter, 6+ letters) stand in for them, at half weight.
  let absent = chosen.absent;
  for (const label of absent.filter(nearEligible)) {
    const near = nearSpellings(label, docs);
    if (near.size === 0) continue;
    words.push({ label, near, df: 1 });
    absent = absent.filter((a) => a !== label);
  }
  const fuzzy = words.filter((w) => w.near).map((w) => ({ word: w.label, as: [...w.near!].slice(0, 3) }));
  const { rankWindows, termsOf } = await ranking;
  // Each distinct line is tokenized once, to rank it and to find the lines of a hit that match.
  const cache = new Map<string, string[]>();
  const labels = words.map((w) => w.label);
  const lineTerms: LineTerms = (line) => termsOf([line], labels, cache);
  for (const r of rankWindows(docs, words, { windows, bytes }, cache)) {
    const c = candidates[r.id]!;
    c.score = r.score;
    c.mask = r.mask;
    c.terms = r.terms;
  }
  const ranked: Candidate[] = [];
  const scored = new Map<number, Candidate[]>();
  for (const c of candidates) if (c.score > 0) scored.set(c.src, [...(scored.get(c.src) ?? []), c]);
  sources.forEach((s, src) => {
    const own = scored.get(src) ?? [];
    for (const c of own)
      ranked.push({ ...c, mask: c.mask | s.noteMask, score: c.score + NOTE_SCORE * bits(s.noteMask) });
    if (own.length === 0 && s.noteMask !== 0)
      ranked.push({
        src,
        window: -1,
        anchors: [],
        mask: s.noteMask,
        pre: 0,
        score: NOTE_SCORE * bits(s.noteMask),
        pieces: [],
        terms: new Set(),
      });
  });
  const worth = words.map((w) => (w.near ? 0.5 : 1));
  const coverage = (m: number) => worth.reduce((a, v, i) => (m & (1 << i) ? a + v : a), 0);
  const full = worth.reduce((a, b) => a + b, 0);
  const tier = (c: Candidate) => (coverage(c.mask) >= full ? 1 : 0);
  ranked.sort(
    (a, b) =>
      tier(b) - tier(a) ||
      b.score - a.score ||
      sources[b.src]!.entry.startedMs - sources[a.src]!.entry.startedMs ||
      a.window - b.window,
  );
  return {
    ...none,
    absent,
    fuzzy,
    ...pickHits(sources, ranked, matched, words, opts, coverage, full, lineTerms),
  };
}

/**
 * One number per window of a source (a common word has 10^5 windows: a string key each cost
 * more than the rest of the count). Windows number at most 2^32 per output; -1 is a note's.
 */
const windowKey = (src: number, window: number) => src * 2 ** 32 + window;

/** Per source: every window the scan found holding a query word, ascending, with its word mask. */
interface Matched {
  windows: number[];
  /** Absent for a query of one word. */
  masks?: number[];
}

/**
 * The windows worth ranking: those holding the most query words, rare words and many matches
 * first, newer results first (at most `k`), from the scan's complete window lists; each with
 * the matches the scan kept inside it, to read it back from. Also every matched window per
 * source (to count the hits not shown).
 */
function pickCandidates(
  sources: Source[],
  column: number[],
  weight: number[],
  k: number,
): { candidates: Candidate[]; matched: Map<number, Matched> } {
  const src: number[] = [];
  const win: number[] = [];
  const key: number[] = [];
  const matched = new Map<number, Matched>();
  const recency = sources
    .map((_, i) => i)
    .sort((a, b) => sources[a]!.entry.startedMs - sources[b]!.entry.startedMs);
  const rank = new Float64Array(sources.length);
  recency.forEach((s, r) => {
    rank[s] = r;
  });
  sources.forEach((s, i) => {
    if (s.scan.binary || column.every((c) => (s.scan.windows[c]?.length ?? 0) === 0)) return;
    // A window is read back from the matches the scan kept in it: windows without one are left out.
    const lists = column.map((c) => s.scan.windows[c] ?? []);
    const counts = column.map((c) => s.scan.counts[c] ?? []);
    if (lists.length === 1) {
      // One word: its list as it is (a common word has 10^5 windows), walked once beside the
      // readable windows in ascending order (the window of a kept match's block and the one
      // before; a native sort of the blocks, as a common word keeps matches in every output).
      const [wins, n] = [lists[0]!, counts[0]!];
      const blocks = Int32Array.from(s.scan.matches, (m) => Math.floor((m.line - 1) / BLOCK)).sort();
      let j = 0;
      let next = 0;
      for (const b of blocks) {
        for (let x = Math.max(next, b - 1); x <= b; x++) {
          while (j < wins.length && wins[j]! < x) j++;
          if (wins[j] !== x) continue;
          src.push(i);
          win.push(x);
          key.push(1e4 + (weight[0]! * n[j]!) / (n[j]! + SATURATION));
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
        const n = counts[w]![at[w]!++]!;
        m |= 1 << w;
        pre += (weight[w]! * n) / (n + SATURATION);
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
    // Among the ties, the best `room` (a native sort of numbers: there may be 10^5 ties).
    const room = k - chosen.length;
    const tie = Float64Array.from(ties, (j) => rank[src[j]!]! * 2 ** 31 + (2 ** 31 - 1 - win[j]!));
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
        if (c && c.anchors.length < 16) c.anchors.push(m);
      }
    }
  }
  return { candidates: [...byWindow.values()].filter((c) => c.anchors.length > 0), matched };
}

function readPieces(sources: Source[], candidates: Candidate[]): void {
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

/** The terms of one line as ranked (its tokens, and markers of query words inside tokens). */
type LineTerms = (line: string) => readonly string[];

/** True when a line holds one of the terms that matched. */
function lineMatches(
  text: string,
  terms: Set<string>,
  near: readonly string[],
  lineTerms: LineTerms,
): boolean {
  const lower = cleanLine(text).toLowerCase();
  for (const t of terms) if (t.startsWith('~') && lower.includes(t.slice(1))) return true;
  return lineTerms(text).some((t) => terms.has(t) || near.includes(t));
}

function pickHits(
  sources: Source[],
  ranked: Candidate[],
  matched: Map<number, Matched>,
  words: Word[],
  opts: SearchOptions,
  coverage: (mask: number) => number,
  full: number,
  lineTerms: LineTerms,
): Pick<Outcome, 'hits' | 'more' | 'moreWithAll'> {
  const taken = new Map<number, Set<number>>();
  const hits: Hit[] = [];
  const byKey = new Map<string, { hit: Hit; runs: Set<Entry> }>();
  const near = words.flatMap((w) => [...(w.near ?? [])]);
  // The same matching lines under the same command: one hit, however many runs hold them.
  const keyOf = (c: Candidate) =>
    `${opts.commandOf(sources[c.src]!.entry)}\n${c.pieces
      .filter((p) => lineMatches(p.text, c.terms, near, lineTerms))
      .map((p) => cleanLine(p.text))
      .join('\n')}`;
  for (const c of ranked) {
    const t = taken.get(c.src) ?? new Set<number>();
    if (c.window >= 0 && (t.has(c.window) || t.has(c.window + 1))) continue;
    if (c.window < 0 && t.size > 0) continue;
    const key = keyOf(c);
    const same = byKey.get(key);
    const entry = sources[c.src]!.entry;
    if (same) {
      if (same.runs.has(entry)) continue;
      same.runs.add(entry);
      same.hit.runs = same.runs.size;
      if (entry.startedMs > same.hit.entry.startedMs) {
        const newer = hitOf(sources[c.src]!, c, words, near, [], lineTerms);
        if (newer) Object.assign(same.hit, { ...newer, runs: same.runs.size });
      }
      continue;
    }
    if (hits.length >= opts.limit) continue;
    const hit = hitOf(sources[c.src]!, c, words, near, hits, lineTerms);
    if (!hit) continue;
    t.add(c.window).add(c.window + 1);
    taken.set(c.src, t);
    byKey.set(key, { hit, runs: new Set([entry]) });
    hits.push(hit);
  }
  // The rest: every window the scan found, sharing no block with a hit, counted without
  // overlapping each other; and the results found by their note alone.
  // A ranked window's words are minisearch's (near spellings included), the others the scan's.
  let more = 0;
  let moreWithAll = 0;
  const rankedMask = new Map(ranked.map((c) => [windowKey(c.src, c.window), c.mask]));
  // A plain loop: a common word has 10^5 windows.
  const covers = new Map<number, boolean>();
  const all = (mask: number) => {
    let yes = covers.get(mask);
    if (yes === undefined) {
      yes = coverage(mask) >= full;
      covers.set(mask, yes);
    }
    return yes;
  };
  for (const [src, { windows, masks }] of matched) {
    const t = taken.get(src);
    let last = -3;
    for (let j = 0; j < windows.length; j++) {
      const x = windows[j]!;
      if ((t && (t.has(x) || t.has(x + 1))) || x <= last + 1) continue;
      more++;
      if (all(rankedMask.get(windowKey(src, x)) ?? (masks ? masks[j]! : 1))) moreWithAll++;
      last = x;
    }
  }
  for (const c of ranked) {
    if (c.window >= 0 || taken.has(c.src) || matched.has(c.src)) continue;
    more++;
    if (coverage(c.mask) >= full) moreWithAll++;
  }
  return {
    hits: hits.map((h) => finished(h, opts)),
    more: hits.length === 0 ? 0 : more,
    moreWithAll: hits.length === 0 ? 0 : moreWithAll,
  };
}

/** The hit as a candidate shows it: its matching lines with context, none an earlier hit shows. */
function hitOf(
  s: Source,
  c: Candidate,
  words: Word[],
  near: string[],
  earlier: Hit[],
  lineTerms: LineTerms,
): Hit | undefined {
  const base = {
    entry: s.entry,
    score: c.score,
    found: bits(c.mask),
    of: words.length,
    runs: 1,
    // Rarest word first: a long line is cut around it.
    tokens: [
      ...[...words].sort((a, b) => a.df - b.df || specific(b.label) - specific(a.label)).map((w) => w.label),
      ...near,
      ...[...c.terms].filter((t) => !t.startsWith('~')),
    ],
  };
  if (c.window < 0) return { ...base, lines: [] };
  const matching = c.pieces.filter((p) => lineMatches(p.text, c.terms, near, lineTerms)).map((p) => p.n);
  if (matching.length === 0) return undefined;
  const range = snippetRange(matching, Number.MAX_SAFE_INTEGER);
  const anchors = c.anchors.filter((a) => a.line >= range.first && a.line <= range.last);
  let pieces: Piece[];
  try {
    pieces = withFile(s.path, (fd) =>
      readAround(fd, anchors.length > 0 ? anchors : c.anchors, range.first, range.last, true),
    );
  } catch {
    return undefined;
  }
  const matched = new Set(matching);
  const shown = earlier.filter((h) => h.entry === s.entry && h.first !== undefined);
  const free = (n: number) => !shown.some((h) => n >= h.first! && n <= h.last!);
  // The contiguous run of free lines around the first matching line.
  const at = pieces.findIndex((p) => matched.has(p.n) && free(p.n));
  if (at === -1) return undefined;
  let a = at;
  let b = at;
  while (a > 0 && pieces[a - 1]!.n === pieces[a]!.n - 1 && free(pieces[a - 1]!.n)) a--;
  while (b + 1 < pieces.length && pieces[b + 1]!.n === pieces[b]!.n + 1 && free(pieces[b + 1]!.n)) b++;
  const lines = pieces.slice(a, b + 1).map((p) => ({
    n: p.n,
    text: cleanLine(p.text),
    match: matched.has(p.n),
    before: p.before,
    after: p.after,
  }));
  return { ...base, first: lines[0]!.n, last: lines[lines.length - 1]!.n, lines };
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
