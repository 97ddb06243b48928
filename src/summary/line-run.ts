/**
 * Runs of identical lines that go on past the head (issue 20: 500,000 `y` lines were told as
 * `previous line repeated 4,368 more times`, then `495,631 lines omitted`). The collector follows
 * the current run of identical lines through the head and, once the head is done, only as long
 * as the run at its end goes on: each line is compared with the previous line's bytes, nothing
 * more, and a stretch of copies of one line is checked at once (bytes equal to themselves
 * shifted by one line's length are that line again and again). The summary then tells the run
 * as one repeat (see joinRun).
 */

import { type Entry, repeatMarker } from './assemble.js';
import { copyOf } from './sniff.js';

/** Lines `from` to `to`, every one the same bytes. */
export interface LineRun {
  from: number;
  to: number;
}

const NL = 10;

export class RunFollower {
  /** False once the run at the end of the head has ended. */
  on = true;
  private bytes: Buffer | undefined;
  private from = 0;
  private to = 0;
  /** Where the current run's last line ends (after its newline), in the output. */
  private endsAt = 0;
  private kept: LineRun | undefined;

  /** Lines longer than `longBytes` are never part of a run. */
  constructor(private readonly longBytes: number) {}

  /**
   * Follows the whole lines of `work` (the last may lack its newline), the first numbered
   * `line`, `offset` bytes into the output; `headEnd` is the head's length once it is done.
   */
  piece(work: Buffer, offset: number, line: number, headEnd: number | undefined): void {
    let pos = 0;
    let n = line;
    while (pos < work.length && this.on) {
      const nl = work.indexOf(NL, pos);
      const e = nl === -1 ? work.length : nl;
      const p = (nl === -1 ? work.length : nl + 1) - pos;
      if (e - pos > this.longBytes) this.other(undefined, n, offset + pos + p, headEnd);
      else if (this.bytes?.length === e - pos && work.compare(this.bytes, 0, e - pos, pos, e) === 0) {
        // One more copy, and as many as follow it, checked at once.
        const copies = nl === -1 ? 1 : periodic(work, pos, p);
        n += copies - 1;
        this.to = n;
        pos += (copies - 1) * p;
        this.endsAt = offset + pos + p;
      } else this.other(work.subarray(pos, e), n, offset + pos + p, headEnd);
      pos += p;
      n++;
    }
  }

  /** A long line (ending at `endsAt`) breaks the current run. */
  long(line: number, endsAt: number, headEnd: number | undefined): void {
    if (this.on) this.other(undefined, line, endsAt, headEnd);
  }

  /** A line unlike the run's: the run ends, and a new one starts unless the head is past. */
  private other(bytes: Buffer | undefined, line: number, endsAt: number, headEnd: number | undefined): void {
    if (headEnd !== undefined && this.endsAt >= headEnd) {
      this.stop();
      return;
    }
    this.bytes = bytes ? copyOf(bytes) : undefined;
    this.from = line;
    this.to = line;
    this.endsAt = endsAt;
  }

  private stop(): void {
    this.on = false;
    if (this.bytes && this.to > this.from) this.kept = { from: this.from, to: this.to };
    this.bytes = undefined;
  }

  /** The run through the end of the head (at least two lines), when there is one. */
  result(headEnd: number): LineRun | undefined {
    if (this.on && this.endsAt >= headEnd) this.stop();
    return this.kept;
  }
}

/**
 * How many copies of the `p` bytes at `pos` (a line and its newline) follow one another from
 * there, to the end of `work` at most (1 at least).
 */
export function periodic(work: Buffer, pos: number, p: number): number {
  const fits = Math.floor((work.length - pos) / p);
  // The bytes from pos are copies of the first p when they equal themselves shifted by p.
  return most(fits, (m) => work.compare(work, pos + p, pos + m * p, pos, pos + (m - 1) * p) === 0);
}

/** The largest m in 1..fits for which `same(m)` holds (it holds for every m up to one). */
export function most(fits: number, same: (m: number) => boolean): number {
  if (same(fits)) return Math.max(1, fits);
  let lo = 1;
  let hi = fits - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (same(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The summary's entries with a shown line of `run`, followed by markers and lines that stay
 * inside the run, told as that line and one repeat marker.
 */
export function joinRun(entries: Entry[], run: LineRun | undefined): Entry[] {
  if (!run) return entries;
  const out: Entry[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as Entry;
    out.push(e);
    if (e.role === 'meta' || e.line < run.from || e.line >= run.to) continue;
    let last = e.line;
    let j = i + 1;
    for (; j < entries.length; j++) {
      const f = entries[j] as Entry;
      const first = f.role === 'meta' ? f.from : f.line;
      if (first !== last + 1 || f.line > run.to) break;
      last = f.line;
    }
    if (j - i < 3) continue;
    out.push({ line: last, from: e.line + 1, text: repeatMarker(last - e.line), role: 'meta' });
    i = j - 1;
  }
  return out;
}
