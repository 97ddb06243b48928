/** The lines of PEM private-key blocks in an output, followed line by line (see keyBlockStep). */

import { keyBlockStep, mayTouchKey, puttyPrivateLines } from '../key-blocks.js';
import type { LineRange } from '../shield.js';

const MAX_KEY_RANGES = 64;
/** A key block with no END marker is taken to run this many lines at most. */
const KEY_MAX_LINES = 100;

export class KeyRanges {
  private readonly ranges: LineRange[] = [];
  private open = false;

  /** Reads the next line that names a private key (every one, in order), cleaned. */
  track(lineText: string, line: number): void {
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

  /** The blocks' line ranges, an unended one cut at KEY_MAX_LINES. */
  list(): LineRange[] {
    return this.ranges.map((r) => ({ from: r.from, to: Math.min(r.to, r.from + KEY_MAX_LINES) }));
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
