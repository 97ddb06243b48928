/**
 * What the collector gathers in its one pass over the output (see collector.ts), and how a
 * candidate line is made.
 */

import type { LineRange } from '../shield.js';
import type { Fingerprint } from './fingerprint.js';
import type { LineRun } from './line-run.js';
import type { LineKind } from './salience.js';

/** One line of output with its 1-based number in the stored file. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** A salient or new line of the output, with the lines of the same template folded into it. */
export interface Candidate extends NumberedLine {
  kind: LineKind;
  score: number;
  /** An error word in a line that does not read as an error (see scoreLine). */
  weak?: boolean;
  /** The line's template (see `template`). */
  template: string;
  /** How many lines share this line's template (1 for a new line shown on its own). */
  count: number;
  /** Line number of the last line with the same template. */
  lastLine: number;
  /** Location lines (`--> src/x.rs:4:9`, `at main (x.c:59)`) that follow an error. */
  attached: NumberedLine[];
  /**
   * A line shown before it for context: the nearest preceding unindented line for an indented
   * error that names no file (eslint's file header), or the location just above an exception
   * (Python's innermost frame).
   */
  owner?: NumberedLine;
  /** True when the line's text was not in the previous run's output. */
  isNew: boolean;
  /** The end of the line before and the start of the line after, kept when a secret may span them. */
  before?: string;
  after?: string;
}

/** A line too long to be held whole: its start, its end and its length. */
export interface LongLine {
  line: number;
  start: string;
  end: string;
  chars: number;
  /**
   * The short lines right after it, held as the head's lines are: a long line (a progress bar
   * redrawn with carriage returns, a minified blob) fills the head and tail windows, and what
   * it ended with goes on in the lines after it.
   */
  after?: NumberedLine[];
}

/** How this run compares with the previous run of the same command. */
export interface Compared {
  /** Lines new since the previous run (exact text not there, no number-only twin to pair with). */
  fresh: number;
  /** Salient lines of the previous run (by their number-masked form) that are not in this one. */
  gone: number;
  /** The text of up to GONE_NAMED of the gone lines (the previous run's best), cleaned. */
  goneTexts: string[];
  /**
   * Gone forms whose text the previous run did not keep: the number of their first line in the
   * previous output and their number-masked hash, in line order (a few; see nameFromPrevious).
   */
  unnamed: [number, number][];
  /** Loose keys of this run's salient forms (see looseKey). */
  loose: ReadonlySet<number>;
  /** False when the previous run has too little in common to be a baseline. */
  related: boolean;
  /**
   * Count lines new only because a count changed (see count-change.ts): marked when shown, but
   * not shown for being new (a verdict shows on its own worth; `Failed Tests 9` is no error).
   */
  changed: ReadonlySet<number>;
  /**
   * Lines that differ from a line of the previous run only in numbers and were paired with it
   * (drift: no news on their own; the last few of each form, see Comparison).
   */
  drifted?: ReadonlySet<number>;
}

/** Everything the renderer needs, gathered in one pass. */
export interface Collected {
  bytes: number;
  /** Number of lines: newlines, plus one if the output does not end with a newline. */
  lines: number;
  /** The first bytes of the output (whole lines, or the start of a long one). */
  head: Buffer;
  /** True when `head` holds the whole output. */
  complete: boolean;
  /** The last lines of the output, complete and numbered (never overlapping a long line). */
  tail: NumberedLine[];
  /** Lines longer than the collector holds whole, by line number (the first and last few). */
  longLines: Map<number, LongLine>;
  binary: boolean;
  binaryType?: string;
  /** Salient lines (one per template) and new lines, in order of appearance. */
  candidates: Candidate[];
  /** Numbers of lines new since the previous run (head and tail lines included), when related. */
  newLines: Set<number>;
  /** Lines of PEM private-key blocks (BEGIN to END), never to be shown. */
  keyRanges: LineRange[];
  /** This run's lines, for comparing with a later run. */
  fingerprint: Fingerprint;
  /** Set when a previous run's fingerprint was given. */
  compared?: Compared;
  /** The run of identical lines through the end of the head, when it has two lines or more. */
  run?: LineRun;
  /** The run of identical lines the output ends with (two lines or more), as a list of one. */
  endRuns?: LineRun[];
}

/** A new candidate: one line of its template so far, nothing attached. */
export function candidate(
  text: string,
  line: number,
  key: string,
  kind: LineKind,
  score: number,
  weak: boolean,
  isNew: boolean,
): Candidate {
  const c: Candidate = {
    line,
    text,
    kind,
    score,
    template: key,
    count: 1,
    lastLine: line,
    attached: [],
    isNew,
  };
  if (weak) c.weak = true;
  return c;
}
