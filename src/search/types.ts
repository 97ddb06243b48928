/** The shapes search's modules share: hits, outcomes, options, sources and candidate windows. */
import type { Shield } from '../shield.js';
import type { Entry } from '../store/registry.js';
import type { Anchor, Piece } from './lines.js';
import type { Scanned } from './scan.js';
import type { QueryTerm } from './tokenize.js';

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
  /** The line that starts the record of the first matching line, above the lines shown (record.ts). */
  header?: { n: number; text: string };
  /** Runs of the same command whose output holds the same lines (this hit shows the newest). */
  runs: number;
  /** The line before the first shown and after the last (for the shield: see lineEdges). */
  edges?: { before?: string; after?: string };
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
  /** Query words found nowhere whole, searched as their parts (see groups.ts). */
  byParts: string[];
  /** Query words found only under near spellings, with those spellings. */
  fuzzy: { word: string; as: string[] }[];
}

export interface SearchOptions {
  terms: QueryTerm[];
  limit: number;
  /** A result's note (searched, and shown on its hits). */
  noteOf: (entry: Entry) => string | undefined;
  /** Masks a line about to be shown (credentials); gets the result, the line number, the text. */
  shield: (entry: Entry) => Shield;
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
  /** Ends the scan (its processes are killed; `scans` resolves undefined). */
  stop: () => void;
}

export interface Source {
  entry: Entry;
  path: string;
  scan: Scanned;
  /** Words (by index) found in the note. */
  noteMask: number;
}

export interface Candidate {
  src: number;
  /** First block of the window; -1 for a result found by its note only. */
  window: number;
  anchors: (Anchor & { word?: number })[];
  mask: number;
  pre: number;
  score: number;
  pieces: Piece[];
  terms: Set<string>;
  /** Line numbers that make its score (rank.ts): a hit is shown around them. */
  focus?: number[];
}

export const bits = (m: number) => {
  let n = 0;
  for (; m; m &= m - 1) n++;
  return n;
};
/**
 * One number per window of a source (a common word has 10^5 windows: a string key each cost
 * more than the rest of the count). Windows number at most 2^32 per output; -1 is a note's.
 */
export const windowKey = (src: number, window: number) => src * 2 ** 32 + window;

/** Per source: every window the scan found holding a query word, ascending, with its word mask. */
export interface Matched {
  windows: number[];
  /** Absent for a query of one word. */
  masks?: number[];
}

/** True when a line holds a query word (as ranked: rank.ts's lineMatcher). */
export type LineMatches = (line: string) => boolean;
