/**
 * A tool's channel tag at the start of its lines (`    [junit] `, `[INFO] `), or a log's prefix
 * (`2026-11-26 09:26:46.948 UTC [20443] postgres@postgres `, `==16550== `): what follows it is
 * the line as the tool under it printed it. A block's indentation and its words are read after
 * it, so that `    [junit] \tFAILED` sits under `    [junit] Testcase: testLs`, and a log's
 * `DETAIL:` line is the detail of the `ERROR:` above it.
 */
import type { LineAt } from './blocks.js';

/** A tag in brackets, or a comment mark (a test protocol's `#   Failed test`, `#     expected:`). */
const TAG = /^\s*(?:\[[A-Za-z][\w.:-]{0,15}\] ?|#\s+(?=\S))/;
/** The shortest log prefix read past: a time, a process id. */
const MIN_PREFIX = 8;
const MAX_PREFIX = 120;

/** The line's tag, without the spaces around it; undefined when it has none. */
const tagOf = (text: string) => TAG.exec(text)?.[0].trim();

/**
 * The lines as seen from line `n`: when `n` has a tag, every line with the same tag is read
 * without it (and without the spaces before it); otherwise the start a line shares with `n` up
 * to a space, its digits aside, when that start holds a number (a log's time and process);
 * other lines are read as they are.
 */
export function untagged(at: LineAt, n: number): LineAt {
  const text = at(n);
  if (text === undefined) return at;
  const tag = tagOf(text);
  if (tag === undefined) {
    // A log's prefix: the start the line shares with the line after it (or before it).
    const p = sharedPrefix(text, at(n + 1) ?? '') || sharedPrefix(text, at(n - 1) ?? '');
    if (p === 0) return at;
    return (k) => {
      const t = at(k);
      return t !== undefined && sameStart(text, t, p) ? t.slice(p) : t;
    };
  }
  return (k) => {
    const t = at(k);
    if (t === undefined) return t;
    const m = TAG.exec(t);
    return m && m[0].trim() === tag ? t.slice(m[0].length) : t;
  };
}

const digit = (c: number) => c >= 48 && c <= 57;

/** Whether `a` and `b` agree on their first `p` characters, digits matching any digit. */
function sameStart(a: string, b: string, p: number): boolean {
  if (b.length < p) return false;
  for (let i = 0; i < p; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y && !(digit(x) && digit(y))) return false;
  }
  return true;
}

/**
 * The length of the start `a` and `b` share, digits matching any digit, cut after its last
 * space; 0 when that is shorter than MIN_PREFIX or holds no digit.
 */
function sharedPrefix(a: string, b: string): number {
  // One pass, no string made: the summary asks this of every line it holds.
  const max = Math.min(a.length, b.length, MAX_PREFIX);
  let end = 0;
  let digits = false;
  let digitsBefore = false;
  for (let i = 0; i < max; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    const d = digit(x);
    if (x !== y && !(d && digit(y))) break;
    if (d) digits = true;
    if (x === 32) {
      end = i + 1;
      digitsBefore = digits;
    }
  }
  return end >= MIN_PREFIX && digitsBefore ? end : 0;
}
