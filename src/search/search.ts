/**
 * The search core, with no index: scan the outputs for the query words (scan.ts), count from the
 * scan how many windows of lines hold each word, read back the best candidate windows, rank them
 * by their best line under those global statistics (rank.ts), keep the best windows that share no
 * lines, and collapse hits that are the same lines in re-runs of one command. Writes nothing.
 */
import { statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import type { Entry } from '../store/registry.js';
import type { RunDir } from '../store/run-dir.js';
import { cleanLine } from '../summary/clean.js';
import { pickCandidates, readPieces } from './candidates.js';
import { type Group, groupMask, PHRASE_BOOST, phraseOf, windowGroups } from './groups.js';
import { pickHits } from './hits.js';
import { longLined } from './long-lines.js';
import type { Doc, Word } from './rank.js';
import { chooseWords, formsFor, literalsOf, nearEligible, withinOneEdit } from './resolve.js';
import { BLOCK, formsOf, isBinaryOutput, type Scanned, scanFile, scanWithGrep } from './scan.js';
import { type QueryTerm, tokenizeLine, tokensOf } from './tokenize.js';
import {
  bits,
  type Candidate,
  type EarlyScan,
  type LineMatches,
  type Matched,
  type Outcome,
  type SearchOptions,
  type Source,
  windowKey,
} from './types.js';

export type { EarlyScan, Hit, HitLine, Outcome, SearchOptions } from './types.js';

/** Most windows read back and ranked. */
const MAX_CANDIDATES = 300;
/**
 * Windows ranked for `limit` hits: the scan's window lists already order them (query words held,
 * rare words first; among windows alike, those nearest an output's ends), so the ranking needs
 * only the best hundred or so to choose the hits among (re-runs of one command collapse, so a
 * hit may use up several).
 */
const candidatesFor = (limit: number) => Math.min(MAX_CANDIDATES, Math.max(100, 20 * limit));
/** Score a query word found in a result's note adds to its hits. */
const NOTE_SCORE = 2;

/** Starts the grep scan of the outputs of `ids` for `terms` (see search's `scanned`). */
export function startScan(dir: RunDir, ids: string[], terms: QueryTerm[]): EarlyScan {
  const forms = formsFor(terms, literalsOf(terms), formsOf);
  const stop = new AbortController();
  return {
    ids,
    scans: scanWithGrep(
      dir.results,
      ids.map((id) => `${id}.txt`),
      forms,
      undefined,
      stop.signal,
    ),
    stop: () => stop.abort(),
  };
}
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
  const forms = formsFor(opts.terms, literals, formsOf);
  // minisearch loads while grep runs: it is needed as soon as there is anything to rank.
  const ranking = import('./rank.js');
  ranking.catch(() => {});
  const scans = await scanAll(dir, entries, paths, forms, opts);
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
  const groups: Group[] = chosen.groups.map((g) => ({
    label: g.label,
    words: g.words.map((w) => chosen.words.indexOf(w)),
    byParts: g.byParts,
    oneLine: g.oneLine,
    worth: 1,
  }));
  const none: Outcome = {
    searched: entries.length,
    hits: [],
    more: 0,
    moreWithAll: 0,
    absent: [...groups.map((g) => g.label), ...chosen.absent],
    fuzzy: [],
    byParts: [],
  };
  if (words.length === 0) return none;

  const sources: Source[] = entries.map((entry, i) => ({
    entry,
    path: paths[i]!,
    scan: scans[i]!,
    noteMask: groupMask(
      groups,
      words.reduce((m, w, k) => (noteMatches(notes[i], w) ? m | (1 << k) : m), 0),
    ),
  }));
  const windows = corpusSize(sources);
  const weight = words.map((w) => idf(Math.max(windows, 1), Math.max(1, w.df)));
  // Binary is decided on the content of the outputs that have candidates (no hit shows binary).
  const k = candidatesFor(opts.limit);
  const { candidates, matched } = pickCandidates(sources, column, weight, k, (src) => {
    const s = sources[src]!;
    if (s.scan.binary || !isBinaryOutput(s.path)) return false;
    s.scan.binary = true;
    return true;
  });
  readPieces(sources, candidates);
  const docs: Doc[] = candidates.map((c, id) => ({ id, lines: c.pieces.map((p) => p.text) }));
  const absent = addNearSpellings(chosen.absent, docs, groups, words);
  const fuzzy = words.filter((w) => w.near).map((w) => ({ word: w.label, as: [...w.near!].slice(0, 3) }));
  const labels = words.map((w) => w.label);
  // Each distinct line is tokenized once, to rank it and to find the lines of a hit that match.
  const { lineMatcher, rankWindows } = await ranking;
  const match = lineMatcher(words);
  const lineMatches: LineMatches = (line) => match(line).q.some((v) => v > 0);
  // Windows holding only some parts of a word typed whole (no match, nor counted as one).
  const rejected = new Set<number>();
  const phrase = phraseOf(opts.terms.map((t) => t.token));
  for (const r of rankWindows(docs, words, { windows }, match)) {
    const c = candidates[r.id]!;
    c.mask = windowGroups(groups, labels, r.mask, c.pieces);
    c.score = c.mask === 0 ? 0 : r.score;
    c.terms = r.terms;
    c.focus = r.focus.map((i) => c.pieces[i]!.n);
    if (c.mask === 0) rejected.add(windowKey(c.src, c.window));
    else if (phrase && c.pieces.some((p) => phrase(p.text))) c.score *= PHRASE_BOOST;
  }
  const { ranked, coverage, full } = order(sources, candidates, groups, matched);
  return {
    ...none,
    absent,
    fuzzy,
    byParts: groups.filter((g) => g.byParts).map((g) => g.label),
    ...pickHits(sources, ranked, matched, words, opts, coverage, full, lineMatches, {
      of: groups.length,
      toGroups: (m) => groupMask(groups, m),
      rejected,
    }),
  };
}

/** Each output's matches: from the early scan when there was one, else the engine or the JS scan. */
async function scanAll(
  dir: RunDir,
  entries: Entry[],
  paths: string[],
  forms: ReturnType<typeof formsFor>,
  opts: SearchOptions,
): Promise<Scanned[]> {
  let scans: Scanned[] | undefined;
  if (opts.scanned) {
    const early = await opts.scanned.scans;
    const at = new Map(opts.scanned.ids.map((id, i) => [id, i]));
    // A result that the early scan did not cover (written since) is scanned here, in JS.
    if (early) scans = entries.map((e, i) => early[at.get(e.meta.id) ?? -1] ?? scanFile(paths[i]!, forms));
  } else if (opts.scan !== 'js') {
    // Outputs of very long lines in JS (see long-lines.ts), the others by the engine.
    const byEngine = entries.flatMap((e, i) => (longLined(e) ? [] : [i]));
    const found = await scanWithGrep(
      dir.results,
      byEngine.map((i) => basename(paths[i]!)),
      forms,
    );
    if (found) {
      const at = new Map(byEngine.map((i, k) => [i, k]));
      scans = paths.map((p, i) => found[at.get(i) ?? -1] ?? scanFile(p, forms));
    }
  }
  return scans ?? paths.map((p) => scanFile(p, forms));
}

/** Global statistics: every window of every text output searched. */
function corpusSize(sources: Source[]): number {
  let windows = 0;
  for (const s of sources) {
    if (s.scan.binary) continue;
    const lines = s.scan.lines ?? s.entry.meta.lines ?? Math.ceil((s.scan.bytes || sizeOf(s)) / 80);
    windows += Math.max(1, Math.ceil(lines / BLOCK));
  }
  return windows;
}

/**
 * Words found nowhere may be typos of words in the candidate windows: near spellings there
 * (one edit, same first letter, 6+ letters) stand in for them, at half weight. Adds them to
 * `groups` and `words`; returns the words still absent.
 */
function addNearSpellings(absent: string[], docs: Doc[], groups: Group[], words: Word[]): string[] {
  for (const label of absent.filter(nearEligible)) {
    const near = nearSpellings(label, docs);
    if (near.size === 0) continue;
    groups.push({ label, words: [words.length], byParts: false, oneLine: false, worth: 0.5 });
    words.push({ label, near, df: 1 });
    absent = absent.filter((a) => a !== label);
  }
  return absent;
}

/**
 * The windows with a score, and outputs matched by their note only, best first: those holding
 * every word first, then by score, newer outputs first, earlier windows first.
 */
function order(sources: Source[], candidates: Candidate[], groups: Group[], matched: Map<number, Matched>) {
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
  const worth = groups.map((g) => g.worth);
  const coverage = (m: number) => worth.reduce((a, v, i) => (m & (1 << i) ? a + v : a), 0);
  const full = worth.reduce((a, b) => a + b, 0);
  const tier = (c: Candidate) => (coverage(c.mask) >= full ? 1 : 0);
  // Hits alike in one output: the nearest its first or its last match first (where a run starts
  // and where it sums up: a warning's first place, a test's report after its progress line).
  const fromEnds = (c: Candidate) => {
    const w = matched.get(c.src)?.windows;
    return w && w.length > 0 ? Math.min(c.window - w[0]!, w[w.length - 1]! - c.window) : 0;
  };
  ranked.sort(
    (a, b) =>
      tier(b) - tier(a) ||
      b.score - a.score ||
      sources[b.src]!.entry.startedMs - sources[a.src]!.entry.startedMs ||
      fromEnds(a) - fromEnds(b) ||
      a.window - b.window,
  );
  return { ranked, coverage, full };
}
