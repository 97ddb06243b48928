/**
 * From ranked windows to the hits shown: non-overlapping, re-runs of one command collapsed, each
 * hit's lines read in full around its matching lines, then masked.
 */
import type { Entry } from '../store/registry.js';
import { cleanLine } from '../summary/clean.js';
import { CONTEXT, type LineRange, MAX_SNIPPET_LINES, snippetRange } from './chunk.js';
import { lineEdges, type Piece, readAround, withFile } from './lines.js';
import type { Word } from './rank.js';
import { recordHeader } from './record.js';
import {
  bits,
  type Candidate,
  type Hit,
  type LineMatches,
  type Matched,
  type Outcome,
  type SearchOptions,
  type Source,
  windowKey,
} from './types.js';

/** Lines past a hit's context within which another matching line of its window is shown too. */
const NEXT_MATCH = 2;
/** A matching line longer than this (minified code, a data line) gets no record header. */
const LONG_LINE = 4096;

/** Identifier-like words (digits, joiners) are more specific than plain ones, then longer ones. */
const specific = (w: string) => (/[\d.\-_/:@#]/.test(w) ? 1000 : 0) + w.length;

export function pickHits(
  sources: Source[],
  ranked: Candidate[],
  matched: Map<number, Matched>,
  words: Word[],
  opts: SearchOptions,
  coverage: (mask: number) => number,
  full: number,
  lineMatches: LineMatches,
  groups: { of: number; toGroups: (wordMask: number) => number; rejected: Set<number> },
): Pick<Outcome, 'hits' | 'more' | 'moreWithAll'> {
  const taken = new Map<number, Set<number>>();
  const hits: Hit[] = [];
  const byKey = new Map<string, { hit: Hit; runs: Set<Entry> }>();
  const near = words.flatMap((w) => [...(w.near ?? [])]);
  // The same matching lines under the same command: one hit, however many runs hold them.
  const keyOf = (c: Candidate) =>
    `${opts.commandOf(sources[c.src]!.entry)}\n${c.pieces
      .filter((p) => lineMatches(p.text))
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
        const newer = hitOf(sources[c.src]!, c, words, near, [], lineMatches, groups.of);
        if (newer) Object.assign(same.hit, { ...newer, runs: same.runs.size });
      }
      continue;
    }
    if (hits.length >= opts.limit) continue;
    const hit = hitOf(sources[c.src]!, c, words, near, hits, lineMatches, groups.of);
    if (!hit) continue;
    t.add(c.window).add(c.window + 1);
    taken.set(c.src, t);
    byKey.set(key, { hit, runs: new Set([entry]) });
    hits.push(hit);
  }
  const { more, moreWithAll } = countRest(ranked, matched, taken, coverage, full, groups);
  // Matched against the text as printed: a hit whose words are all inside masked credentials
  // is no hit (else a secret could be probed one character at a time).
  const shownHits = hits.map((h) => finished(h, opts, words)).filter((h) => h !== undefined);
  return {
    hits: shownHits,
    more: shownHits.length === 0 ? 0 : more,
    moreWithAll: shownHits.length === 0 ? 0 : moreWithAll,
  };
}

/**
 * The rest: every window the scan found, sharing no block with a hit, counted without
 * overlapping each other; and the results found by their note alone.
 */
function countRest(
  ranked: Candidate[],
  matched: Map<number, Matched>,
  taken: Map<number, Set<number>>,
  coverage: (mask: number) => number,
  full: number,
  groups: { toGroups: (wordMask: number) => number; rejected: Set<number> },
): { more: number; moreWithAll: number } {
  // A ranked window's words are the ranking's (near spellings included), the others the scan's.
  let more = 0;
  let moreWithAll = 0;
  const rankedMask = new Map(ranked.map((c) => [windowKey(c.src, c.window), c.mask]));
  // Per output, whether any of its windows was ranked or rejected (most were neither).
  const looked = new Set([
    ...ranked.map((c) => c.src),
    ...[...groups.rejected].map((k) => Math.floor(k / 2 ** 32)),
  ]);
  // A plain loop: a common word has 10^5 windows (and few distinct masks).
  const groupsOf = new Map<number, number>();
  const toGroups = (m: number) => {
    let g = groupsOf.get(m);
    if (g === undefined) {
      g = groups.toGroups(m);
      groupsOf.set(m, g);
    }
    return g;
  };
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
    const seen = looked.has(src);
    if (!t && !seen && !masks) {
      // One word, in an output no hit or candidate is from (most of a common word's): every
      // window alike, counted in a bare loop.
      const n = spread(windows);
      const mask = toGroups(1);
      if (mask !== 0) {
        more += n;
        if (all(mask)) moreWithAll += n;
      }
      continue;
    }
    let last = -3;
    for (let j = 0; j < windows.length; j++) {
      const x = windows[j]!;
      if ((t && (t.has(x) || t.has(x + 1))) || x <= last + 1) continue;
      const key = seen ? windowKey(src, x) : -1;
      // A window holding only some parts of a word typed whole is no match.
      const mask =
        (seen ? rankedMask.get(key) : undefined) ??
        (seen && groups.rejected.has(key) ? 0 : toGroups(masks ? masks[j]! : 1));
      if (mask === 0) continue;
      more++;
      if (all(mask)) moreWithAll++;
      last = x;
    }
  }
  for (const c of ranked) {
    if (c.window >= 0 || taken.has(c.src) || matched.has(c.src)) continue;
    more++;
    if (coverage(c.mask) >= full) moreWithAll++;
  }
  return { more, moreWithAll };
}

/** How many of `windows` (ascending) share no block, each counted from the first after the last. */
function spread(windows: number[]): number {
  let n = 0;
  let last = -3;
  for (let j = 0; j < windows.length; j++) {
    const x = windows[j]!;
    if (x <= last + 1) continue;
    n++;
    last = x;
  }
  return n;
}

/**
 * The lines a hit shows: CONTEXT lines around `core`, and a matching line of its window up to
 * NEXT_MATCH lines past that context (a test's frame two lines below its assertion), in turn,
 * as long as the whole stays within MAX_SNIPPET_LINES (`core` is never cut).
 */
function shownRange(core: number[], matching: number[]): LineRange {
  let first = core[0]!;
  let last = core[core.length - 1]!;
  const fits = (a: number, b: number) => b - a + 1 + CONTEXT <= MAX_SNIPPET_LINES;
  for (const n of matching) if (n > last && n - last <= CONTEXT + NEXT_MATCH && fits(first, n)) last = n;
  for (const n of [...matching].reverse())
    if (n < first && first - n <= CONTEXT + NEXT_MATCH && fits(n, last)) first = n;
  return snippetRange([first, last], Number.MAX_SAFE_INTEGER);
}

/** The hit as a candidate shows it: its matching lines with context, none an earlier hit shows. */
function hitOf(
  s: Source,
  c: Candidate,
  words: Word[],
  near: string[],
  earlier: Hit[],
  lineMatches: LineMatches,
  of: number,
): Hit | undefined {
  const base = {
    entry: s.entry,
    score: c.score,
    found: bits(c.mask),
    of,
    runs: 1,
    // Rarest word first: a long line is cut around it.
    tokens: [
      ...[...words].sort((a, b) => a.df - b.df || specific(b.label) - specific(a.label)).map((w) => w.label),
      ...near,
      ...[...c.terms].filter((t) => !t.startsWith('~')),
    ],
  };
  if (c.window < 0) return { ...base, lines: [] };
  const matching = c.pieces.filter((p) => lineMatches(p.text)).map((p) => p.n);
  if (matching.length === 0) return undefined;
  // Around the lines that make its score (the best line, a line for each other word), not every
  // line of the window holding a query word: a hit is its line and that line's context.
  const focus = c.focus?.filter((n) => matching.includes(n)).sort((a, b) => a - b) ?? [];
  const range = shownRange(focus.length > 0 ? focus : matching, matching);
  const anchors = c.anchors.filter((a) => a.line >= range.first && a.line <= range.last);
  let pieces: Piece[];
  const matched = new Set(matching);
  try {
    pieces = withFile(s.path, (fd) =>
      readAround(fd, anchors.length > 0 ? anchors : c.anchors, range.first, range.last, true),
    );
  } catch {
    return undefined;
  }
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
  // The record of the first matching line shown (not of a cut line: minified code has none).
  const first = pieces.slice(a, b + 1).find((p) => matched.has(p.n));
  let header: { n: number; text: string } | undefined;
  if (first && first.before === 0 && first.after === 0 && first.text.length <= LONG_LINE) {
    try {
      header = withFile(s.path, (fd) =>
        recordHeader(fd, { n: first.n, text: cleanLine(first.text), start: first.start }),
      );
    } catch {
      /* removed meanwhile: no header */
    }
  }
  const outside = header && header.n < lines[0]!.n ? { header } : {};
  let edges: Hit['edges'];
  try {
    edges = withFile(s.path, (fd) => lineEdges(fd, pieces[a]!, pieces[b]!));
  } catch {
    /* removed meanwhile: no edges */
  }
  return {
    ...base,
    first: lines[0]!.n,
    last: lines[lines.length - 1]!.n,
    lines,
    ...outside,
    ...(edges ? { edges } : {}),
  };
}

/**
 * The hit as shown: its lines masked by the shield, its result's note attached. A line the
 * shield changed matches only if a query word (or near spelling) is still in it; undefined
 * when no line of a hit with lines matches any more.
 */
function finished(hit: Hit, opts: SearchOptions, words: Word[]): Hit | undefined {
  const shield = opts.shield(hit.entry);
  const note = opts.noteOf(hit.entry);
  const visible = (text: string) => {
    const lower = cleanLine(text).toLowerCase();
    return words.some((w) => lower.includes(w.label) || [...(w.near ?? [])].some((n) => lower.includes(n)));
  };
  const lines = hit.lines.map((l, i) => {
    // Its neighbours, for a secret cut over two lines: the lines shown, or the edges read.
    const prev = hit.lines[i - 1];
    const next = hit.lines[i + 1];
    const around = {
      before: () =>
        l.before !== 0
          ? undefined
          : prev
            ? prev.n === l.n - 1 && prev.after === 0
              ? prev.text
              : undefined
            : hit.edges?.before,
      after: () =>
        l.after !== 0
          ? undefined
          : next
            ? next.n === l.n + 1 && next.before === 0
              ? next.text
              : undefined
            : hit.edges?.after,
    };
    const text = shield(l.n, l.text, around);
    return text === l.text ? { ...l, text } : { ...l, text, match: l.match && visible(text) };
  });
  if (hit.lines.length > 0 && !lines.some((l) => l.match)) return undefined;
  return {
    ...hit,
    lines,
    ...(hit.header ? { header: { n: hit.header.n, text: shield(hit.header.n, hit.header.text) } } : {}),
    ...(note ? { note } : {}),
  };
}
