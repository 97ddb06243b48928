/** The lines of PEM private-key blocks in an output, followed line by line (see keyBlockStep). */

import { keyBlockStep, mayTouchKey } from '../redact.js';
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
