/**
 * Failing checks among passing ones. A verbose test runner prints one line per check, all of one
 * shape; the failing one has the shape of hundreds of passing ones, but a fail mark where they
 * have a pass mark (`test_x F` among `test_y ok`, `tests/a.py::t FAILED [ 34%]` among `… PASSED
 * [ 34%]`, `✖ name` among `✔ name`), or a fail mark where its siblings have none (`  should x
 * (FAILED - 1)` among `  should y`). It is the one line that says which check failed; its shape
 * alone makes it look like noise. The marks are a table of words and symbols, not a tool's format.
 */
import { shape } from './salience.js';

/** What a line's end says after its progress or duration (`[ 34%]`, `(2.8ms)`, `0.01s`). */
const TRAILER = /\s*(?:\[\s*\d+%\]|\(\s*\d[\d.]*\s*m?s\)|\[\s*\d[\d.]*\s*m?s\]|\d[\d.]*\s*m?s)\s*$/;
const PASS_END = /(?:^|\s)(?:\.\.\.\s*)?(?:ok|OK|PASS|PASSED|passed|[✓✔√])$/;
const FAIL_END =
  /(?:^|\s)(?:\.\.\.\s*)?(?:F|E|FAIL|FAILED|ERROR|failed|[✖✗✘✕×]|\((?:FAILED|FAIL|ERROR)(?:\s*-\s*\d+)?\))$/;
const PASS_START = /^(?:[✓✔√]|ok\b|PASS(?:ED)?\b|\[\s*(?:OK|PASS(?:ED)?)\s*\])/;
const FAIL_START = /^(?:[✖✗✘✕×]|not ok\b|FAIL(?:ED)?\b|\[\s*(?:FAIL(?:ED)?|ERROR)\s*\])/;

type Outcome = 'pass' | 'fail';

/** Where a line says its check's outcome (the start or the end of its text), and which. */
function outcomeOf(text: string): { slot: string; mark: Outcome } | undefined {
  const body = text.trimStart();
  if (FAIL_START.test(body)) return { slot: 'start', mark: 'fail' };
  if (PASS_START.test(body)) return { slot: 'start', mark: 'pass' };
  const end = body.replace(TRAILER, '');
  if (FAIL_END.test(end)) return { slot: 'end', mark: 'fail' };
  if (PASS_END.test(end)) return { slot: 'end', mark: 'pass' };
  return undefined;
}

const indent = (text: string) => text.length - text.trimStart().length;

/** Siblings a failing check needs among the lines looked at to be read as one. */
const MIN_SIBLINGS = 5;

/**
 * Learns, from lines of the output (the held head and tail), which shapes passing checks have,
 * and returns whether a line is a failing check of such a shape: a fail mark where at least
 * MIN_SIBLINGS lines of its indentation have a pass mark, or a fail mark at its end where at
 * least MIN_SIBLINGS lines of its indentation and first word have no mark at all.
 */
export function failingChecks(lines: Iterable<string>): (text: string) => boolean {
  const passes = new Map<string, number>();
  const plain = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const text of lines) {
    if (text.trim() === '') continue;
    const o = outcomeOf(text);
    if (o?.mark === 'pass') bump(passes, `${indent(text)}|${o.slot}`);
    else if (!o) bump(plain, shape(text, 1));
  }
  return (text) => {
    const o = outcomeOf(text);
    if (o?.mark !== 'fail') return false;
    if ((passes.get(`${indent(text)}|${o.slot}`) ?? 0) >= MIN_SIBLINGS) return true;
    return o.slot === 'end' && (plain.get(shape(text, 1)) ?? 0) >= MIN_SIBLINGS;
  };
}

/**
 * The severity of a failing check among passing ones, not damped by how many checks fail: more
 * than an error message's, for it names what failed.
 */
export const CHECK_SEVERITY = 14;
/** What is left of a failing check's worth per one shown: each names another thing to fix. */
export const CHECK_DECAY = 0.7;
