/**
 * The lines a search hit shows (its matching lines with CONTEXT lines around them, at most
 * MAX_SNIPPET_LINES), and the splitting of a stored output's bytes into lines.
 */

/** Lines of context shown above the first and below the last matching line of a hit. */
export const CONTEXT = 3;
/** Most lines one hit shows. */
export const MAX_SNIPPET_LINES = 12;

/** A range of 1-based line numbers, both ends included. */
export interface LineRange {
  first: number;
  last: number;
}

/**
 * The lines a hit shows: CONTEXT lines around the matching lines (1-based, sorted), kept inside
 * the output (`totalLines`) and cut to MAX_SNIPPET_LINES around the first match.
 */
export function snippetRange(matching: readonly number[], totalLines: number, context = CONTEXT): LineRange {
  const a = matching[0] ?? 1;
  const b = matching[matching.length - 1] ?? a;
  const first = Math.max(1, a - context);
  const last = Math.min(Math.max(totalLines, b), b + context, first + MAX_SNIPPET_LINES - 1);
  return { first, last: Math.max(first, last) };
}

/**
 * Splits a buffer into lines, calling `line(start, end)` with byte offsets of each line without
 * its `\n`. A final line without `\n` counts; a final `\n` does not start an empty line.
 */
export function forEachLine(
  buf: Uint8Array,
  from: number,
  to: number,
  line: (start: number, end: number) => void,
): void {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let start = from;
  while (start < to) {
    let nl = b.indexOf(10, start);
    if (nl === -1 || nl >= to) nl = to;
    line(start, nl);
    start = nl + 1;
  }
}
