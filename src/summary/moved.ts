/**
 * A measure that moved since the last run. A line that differs from a line of the previous run
 * only in numbers is paired with it as line-number drift, and is no news; but when the number
 * is a share of something (`Lines executed:66.06% of 218`, `Coverage: 81.2%`), the line is a
 * measure, and a measure that moved is what the re-run was for. A share in brackets at a line's
 * edge is a progress mark (`[ 34%]`, `[100%]`), and a line with a duration or a rate (a download's
 * `61% 90.8M 0s`) moves on every run: neither is news. Only lines whose exact text is new but
 * whose number-masked form the last run had are read, so the work per line is one byte search.
 */

const PERCENT = 0x25;
/** A share: digits right before `%`, not in brackets as progress. */
const SHARE = /\d%(?!\s*\])/;
const PROGRESS = /\[\s*\d+(?:\.\d+)?%\s*\]/;
/** A clock time, a duration or a rate: they move on every run. */
const MOVING =
  /\b\d{1,2}:\d\d\b|\d(?:\.\d+)?\s?(?:ns|[uµ]s|ms|secs?|seconds?|s|mins?|minutes?|m|h)\b|\d[KMG]?B?\/s\b|\d[KMG]\b/i;
/** A place in code: its line number drifts when the code above it changes. */
const PLACE = /[\w./-]+\.\w+:\d+|\bline \d+/;

/** Whether `text`, a line found changed in numbers only, states a share that moved. */
export function isMovedShare(text: string): boolean {
  return SHARE.test(text) && !PROGRESS.test(text) && !MOVING.test(text) && !PLACE.test(text);
}

/** Whether the bytes `work[s..e)` hold a `%` (a cheap test before decoding). */
export function hasPercent(work: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (work[i] === PERCENT) return true;
  return false;
}

/** A row of a tally: a count, then what it counts (`   128  lib/command.js:27`, `  5 index.js`). */
const ROW = /^\s*\d[\d,]*\s+(?=\S*[A-Za-z])/;
/** A place's line and column: they drift when code moves, the row's count does not. */
const PLACE_NUMBERS = /(\.\w+)[:(]\d+(?:[:,]\d+)?\)?/g;

/**
 * Whether the bytes `work[s..e)` may be a tally's row: after blanks, a count, blanks, then a
 * letter or a path (a cheap test before decoding: a code frame's `  87 |` is none).
 */
export function leadsWithDigit(work: Uint8Array, s: number, e: number): boolean {
  let i = s;
  while (i < e && (work[i] === 0x20 || work[i] === 0x09)) i++;
  const from = i;
  while (i < e && (isDigit(work[i] as number) || (i > from && work[i] === 0x2c))) i++;
  if (i === from || i >= e || (work[i] !== 0x20 && work[i] !== 0x09)) return false;
  while (i < e && (work[i] === 0x20 || work[i] === 0x09)) i++;
  const b = (work[i] as number) | 0x20;
  return i < e && ((b >= 0x61 && b <= 0x7a) || work[i] === 0x2e || work[i] === 0x2f || work[i] === 0x5f);
}

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;

/**
 * The row of a tally a line is, with its places' numbers masked (the count is what may move),
 * or undefined when the line is no row or holds a time or a duration.
 */
export function rowOf(text: string): string | undefined {
  if (!ROW.test(text) || MOVING.test(text)) return undefined;
  return text.replace(PLACE_NUMBERS, '$1:#');
}
