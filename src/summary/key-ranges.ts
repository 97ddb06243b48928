/** The lines of PEM private-key blocks in an output, followed line by line (see keyBlockStep). */

import { cutMarkerAt, keyBlockStep, mayTouchKey, puttyPrivateLines } from '../key-blocks.js';
import type { LineRange } from '../shield.js';
import { cleanLine } from './clean.js';

const MAX_KEY_RANGES = 64;
/** A key block with no END marker is taken to run this many lines at most. */
const KEY_MAX_LINES = 100;
/** A line that may end a piece of a private-key marker. */
const MAY_CUT = /-|BEGIN|PRIVATE|KEY/;
/** The last lines before `work[s]`, cleaned (see linesBefore). */
type LinesBefore = (work: Buffer, s: number) => string[];

export class KeyRanges {
  private readonly ranges: LineRange[] = [];
  private open = false;

  /**
   * Reads the next line that names a private key or holds a piece of a marker (every one, in
   * order), cleaned; `before` gives the ends of the lines before it.
   */
  track(lineText: string, line: number, before: () => string[] = () => []): void {
    if (this.cut(lineText, line, before)) return;
    if (!mayTouchKey(lineText, this.open)) return;
    // A PuTTY key says how many lines its private part has: exactly those are the key.
    const putty = this.open ? undefined : puttyPrivateLines(lineText);
    if (putty !== undefined) {
      if (putty > 0 && this.ranges.length < MAX_KEY_RANGES)
        this.ranges.push({ from: line + 1, to: line + Math.min(putty, KEY_MAX_LINES) });
      return;
    }
    const step = keyBlockStep(lineText, this.open);
    const open = this.ranges[this.ranges.length - 1];
    const ends = !step.continues || step.opens || !step.open;
    if (this.open && ends && open?.to === Number.POSITIVE_INFINITY)
      open.to = step.continues ? line : line - 1;
    if (step.opens && this.ranges.length < MAX_KEY_RANGES)
      this.ranges.push({ from: line, to: Number.POSITIVE_INFINITY });
    this.open = step.open;
  }

  /**
   * `track` of the line `work[s..e)`, its text decoded and cleaned here: the function that gives
   * the lines before it is made only for a line read (made in the caller, it cost every line the
   * guard finds a context, read or not: 30 MB of garbage per 100 MB of gcc warnings).
   */
  read(work: Buffer, s: number, e: number, line: number, before: LinesBefore): void {
    this.track(cleanLine(work.toString('utf8', s, e)), line, () => before(work, s));
  }

  /**
   * A marker cut over lines (see cutMarkerAt): a BEGIN opens a block from the line it starts on
   * (unless one is open: it is the marker that opened it, completed), an END ends the open one.
   * True when the line ends a piece of one.
   */
  private cut(lineText: string, line: number, before: () => string[]): boolean {
    if (!MAY_CUT.test(lineText)) return false;
    const cut = cutMarkerAt(before(), lineText);
    if (!cut) return false;
    const open = this.open ? this.ranges.at(-1) : undefined;
    if (cut.kind === 'begin' && !this.open) {
      if (this.ranges.length < MAX_KEY_RANGES)
        this.ranges.push({ from: line - cut.back, to: Number.POSITIVE_INFINITY });
      this.open = true;
    } else if (cut.kind === 'end' && this.open) {
      if (open?.to === Number.POSITIVE_INFINITY) open.to = line;
      this.open = false;
    }
    return true;
  }

  /** The blocks' line ranges, an unended one cut at KEY_MAX_LINES. */
  list(): LineRange[] {
    return this.ranges.map((r) => ({
      from: r.from,
      to: r.to === Number.POSITIVE_INFINITY ? r.from + KEY_MAX_LINES : r.to,
    }));
  }
}

const PRIVATE = Buffer.from('private');
/**
 * How far the 7-byte window may move on, by its last byte (ASCII case folded): Horspool's table
 * for `private`, so that most bytes of a line are never read.
 */
const SKIP = new Uint8Array(256).fill(7);
for (let j = 0; j < 6; j++) {
  const c = PRIVATE[j] as number;
  SKIP[c] = 6 - j;
  SKIP[c - 32] = 6 - j;
}

/** Whether `buf[s..e)` holds `private` in any case (a cheap test before NAMES_KEY). */
export function hasPrivate(buf: Buffer, s: number, e: number): boolean {
  for (let i = s + 6; i < e; ) {
    const last = buf[i] as number;
    if ((last | 32) === 101) {
      let j = 0;
      while (j < 6 && ((buf[i - 6 + j] as number) | 32) === (PRIVATE[j] as number)) j++;
      if (j === 6) return true;
    }
    i += SKIP[last] as number;
  }
  return false;
}

/** Bytes before a line read for the lines a private-key marker may be cut over. */
export const CUT_BYTES = 256;

/** The last lines before a line, cleaned, from the bytes before it (the first may be a part). */
export function linesBefore(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\n').slice(-5, -1).map(cleanLine);
}

const DASHES = Buffer.from('--');
const BEG = Buffer.from('BEG');

/**
 * Whether a line holds `--` or `BEG` (a piece of a private-key marker may be in it), for many
 * lines of one buffer: each of the two is found by a native search from where it was last looked
 * for, not by a loop over every line's bytes (a third of a warnings-heavy output is asked about).
 */
export class MarkPieces {
  private buf: Uint8Array | undefined;
  /** Where the searches were made from, and the first `--` and `BEG` at or after it (-1: none). */
  private from = 0;
  private dashes = -1;
  private beg = -1;

  /** Whether `buf[s..e)` holds `--` or `BEG`. */
  has(buf: Buffer, s: number, e: number): boolean {
    if (buf !== this.buf || s < this.from) {
      this.buf = buf;
      this.from = s;
      this.dashes = buf.indexOf(DASHES, s);
      this.beg = buf.indexOf(BEG, s);
    } else {
      this.from = s;
      if (this.dashes !== -1 && this.dashes < s) this.dashes = buf.indexOf(DASHES, s);
      if (this.beg !== -1 && this.beg < s) this.beg = buf.indexOf(BEG, s);
    }
    return (this.dashes !== -1 && this.dashes + 2 <= e) || (this.beg !== -1 && this.beg + 3 <= e);
  }
}
