/**
 * The run of identical lines the tail starts in, when it began before the tail (issue 20: 20,000
 * numbers, 500,000 `y` lines, then `a` and `b` were told as `487,230 lines omitted`, `y` and
 * `previous line repeated 32,765 more times`, the copies the tail held). Found at the end from
 * the bytes alone, whatever pieces they were scanned in:
 * - a run that began at most `SCAN_BYTES + pieceMost` bytes before the tail is counted back in
 *   the output's last bytes, which the collector holds that far (see heldBytes);
 * - a run that began earlier was, at some piece's end inside it and not far before the tail, the
 *   run the output so far ended with, SCAN_BYTES long or more: EndRun keeps those (SeenRun),
 *   with their first line, which is exact wherever a run is seen.
 * (Why that suffices: a run no piece ends inside lies in one piece of several lines, at most
 * SCAN_BYTES; otherwise the last piece that ends inside it ends at most pieceMost bytes before
 * it does, and the tail starts before it does.)
 */

import type { LineRun } from './line-run.js';
import { most, periodic } from './line-run.js';

/** The collector scans whole lines in pieces of about this many bytes (or one longer line). */
export const SCAN_BYTES = 32 * 1024;
const NL = 10;

/** A long run of identical lines (`line`), seen where a piece ended `endsAt` bytes in. */
export interface SeenRun extends LineRun {
  line: Buffer;
  endsAt: number;
}

/** The longest piece of whole lines the collector scans that a line of a run can end. */
export const pieceMost = (keepBytes: number) => Math.max(SCAN_BYTES, keepBytes + 1);

/** How many of the output's last bytes the collector holds: the tail, and enough to look back. */
export const heldBytes = (keepBytes: number) => keepBytes + pieceMost(keepBytes) + SCAN_BYTES + 1;

/**
 * Where the tail starts in `held`, the last bytes of an output `total` bytes long: at the first
 * line that starts inside its last `keepBytes` bytes; -1 when there is no such line.
 */
export function tailStart(held: Buffer, total: number, keepBytes: number): number {
  let at = Math.max(0, held.length - keepBytes);
  if (total - held.length + at > 0 && held[at - 1] !== NL) {
    const nl = held.indexOf(NL, at);
    if (nl === -1) return -1;
    at = nl + 1;
  }
  return at < held.length ? at : -1;
}

/**
 * How many copies of a line and its newline (`p` bytes) end `work` at `end`, each starting a
 * line: after a newline, or at the start of `work` when that is the start of a line (not `cut`).
 * Counted when the last `p` bytes are one (so 1 at least then); 0 when they are not.
 */
export function copiesEndingAt(work: Buffer, end: number, p: number, cut: boolean): number {
  const fits = Math.floor(end / p);
  // The last m·p bytes are copies of the last p when they equal themselves shifted by p.
  let m = most(fits, (k) => work.compare(work, end - k * p, end - p, end - (k - 1) * p, end) === 0);
  const first = end - m * p;
  if (first > 0 ? work[first - 1] !== NL : cut) m--;
  return m;
}

/**
 * The run the tail starts in, from its first line to the last copy the tail holds, when it began
 * before the tail; `held` is the output's last bytes (heldBytes of them, or all), `lines` the
 * output's line count, `seen` EndRun's long runs.
 */
export function runAtTail(
  held: Buffer,
  total: number,
  lines: number,
  keepBytes: number,
  seen: readonly SeenRun[],
): LineRun | undefined {
  const at = tailStart(held, total, keepBytes);
  const nl = at > 0 ? held.indexOf(NL, at) : -1;
  if (nl === -1) return undefined;
  const line = held.subarray(at, nl);
  const p = line.length + 1;
  if (at < p || held.compare(line, 0, line.length, at - p, at - 1) !== 0) return undefined;
  const back = copiesEndingAt(held, at, p, total > held.length);
  if (back === 0) return undefined;
  const first = lines - startsFrom(held, at) + 1;
  let from = first - back;
  for (const s of seen) if (s.from < from && s.to >= from - 1 && s.line.equals(line)) from = s.from;
  return { from, to: first + periodic(held, at, p) - 1 };
}

/** How many lines start at or after `at` in `buf` (the last one may lack its newline). */
function startsFrom(buf: Buffer, at: number): number {
  let n = 0;
  for (let i = buf.indexOf(NL, at); i !== -1; i = buf.indexOf(NL, i + 1)) n++;
  return buf[buf.length - 1] === NL ? n : n + 1;
}
