/**
 * A run that says it failed. Some runners exit 0 whatever their checks did (a verbose doctest
 * ends `575 passed and 5 failed.` and `***Test Failed*** 5 failures.`, a wrapper that reports
 * without failing the build): their verdict, not their exit status, says the run failed, and the
 * summary weighs the output as a failed run's (a title names a failure, a weak error word counts).
 */
import type { PoolLine } from './lines.js';
import { verdictLine } from './worth.js';

/** A count of failures above zero (`5 failed`, `2 failing`, `1 failure`). */
const FAILED_COUNT = /\b[1-9]\d*\s+(?:failed|failing|failures?)\b/i;
/** How much of a long line is read for its count. */
const WIDTH = 400;

/** Whether a verdict counts failures (see above). */
export function saysFailed(text: string): boolean {
  return FAILED_COUNT.test(text);
}

/** Whether the run's verdict, among the held lines, counts failures (see verdictLine). */
export function failedVerdict(known: ReadonlyMap<number, PoolLine>, total: number): boolean {
  const lines = [...known].map(([line, l]) => ({ line, text: l.cut(WIDTH) }));
  const verdict = verdictLine(lines, total);
  const text = verdict === undefined ? undefined : known.get(verdict)?.cut(WIDTH);
  return text !== undefined && saysFailed(text);
}
