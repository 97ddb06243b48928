/**
 * Failing checks among passing ones. A verbose test runner prints one line per check, all of one
 * shape; the failing one has the shape of hundreds of passing ones, but a fail mark where they
 * have a pass mark (`test_x F` among `test_y ok`, `tests/a.py::t FAILED [ 34%]` among
 * `… PASSED [ 34%]`, `✖ name` or `1) name` among `✔ name`), or a fail mark where its siblings
 * have none (`  should x (FAILED - 1)` among `  should y`). It is the one line that says which
 * check failed; its shape alone makes it look like noise. The marks are a table of words and
 * symbols, not a tool's format.
 */
import { remembered } from '../memo.js';
import { EXPECTED_FAILURE, indentOf, shape, template } from './salience.js';

/** What a line's end says after its progress or duration (`[ 34%]`, `(2.8ms)`, `0.01s`). */
const TRAILER = /\s*(?:\[\s*\d+%\]|\(\s*\d[\d.]*\s*m?s\)|\[\s*\d[\d.]*\s*m?s\]|\d[\d.]*\s*m?s)\s*$/;
const PASS_END = /(?:^|\s)(?:\.\.\.\s*)?(?:ok|OK|PASS|PASSED|passed|[✓✔√])$/;
const FAIL_END =
  /(?:^|\s)(?:\.\.\.\s*)?(?:F|E|FAIL|FAILED|ERROR|failed|[✖✗✘✕×]|\((?:FAILED|FAIL|ERROR)(?:\s*-\s*\d+)?\))$/;
const PASS_START = /^(?:[✓✔√]|ok\b|PASS(?:ED)?\b|\[\s*(?:OK|PASS(?:ED)?)\s*\])/;
const FAIL_START = /^(?:[✖✗✘✕×]|not ok\b|FAIL(?:ED)?\b|\[\s*(?:FAIL(?:ED)?|ERROR)\s*\]|\d{1,4}\)\s)/;
/**
 * An outcome as the first field of a record, quoted (`["fail",{"title":…}]` among
 * `["pass",{…}]`, a reporter's event stream): a word in a column, in any case.
 */
const QUOTED_START = /^[[{(]\s*["'](?:(pass(?:ed)?|ok|success)|(fail(?:ed|ure)?|error))["']/i;

type Outcome = 'pass' | 'fail';

/**
 * Where a line says its check's outcome (the start or the end of its text), and which; remembered,
 * as the line's other pure functions are (see src/memo.ts), for the summary asks more than once.
 */
const outcomeOf = remembered(outcomeOfLine);

function outcomeOfLine(text: string): { slot: string; mark: Outcome } | null {
  const body = text.trimStart();
  // An expected failure is no failing check: it passes as its author said it would.
  if (EXPECTED_FAILURE.test(body)) return { slot: 'start', mark: 'pass' };
  if (FAIL_START.test(body)) return { slot: 'start', mark: 'fail' };
  if (PASS_START.test(body)) return { slot: 'start', mark: 'pass' };
  const quoted = QUOTED_START.exec(body);
  if (quoted) return { slot: 'start', mark: quoted[1] ? 'pass' : 'fail' };
  const end = body.replace(TRAILER, '');
  if (FAIL_END.test(end)) return { slot: 'end', mark: 'fail' };
  if (PASS_END.test(end)) return { slot: 'end', mark: 'pass' };
  return null;
}

/** Whether a line bears a fail mark at its start or its end (`not ok 11 - x`, `x ... FAILED`). */
export const failMarked = (text: string) => outcomeOf(text)?.mark === 'fail';

/** Siblings a failing check needs among the lines looked at to be read as one. */
const MIN_SIBLINGS = 5;

/** What the checks of an output say about a line (see checksOf). */
export interface Checks {
  /** A failing check among passing ones. */
  failing: (text: string) => boolean;
}

/**
 * Learns, from lines of the output (the held head and tail), which shapes passing checks have: a
 * line is a failing check of such a shape when it has a fail mark where at least MIN_SIBLINGS
 * lines of its indentation have a pass mark, or a fail mark at its end where at least
 * MIN_SIBLINGS lines of its indentation and first word have no mark at all.
 */
export function checksOf(lines: readonly string[]): Checks {
  const passes = new Map<string, number>();
  const plain = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const text of lines) {
    if (text.trim() === '') continue;
    const o = outcomeOf(text);
    if (o?.mark === 'pass') bump(passes, `${indentOf(text)}|${o.slot}`);
    else if (!o) bump(plain, shape(text, 1));
  }
  const marked = (text: string, o: { slot: string }) =>
    (passes.get(`${indentOf(text)}|${o.slot}`) ?? 0) >= MIN_SIBLINGS;
  const unmarkedSiblings = (text: string, o: { slot: string }) =>
    o.slot === 'end' && (plain.get(shape(text, 1)) ?? 0) >= MIN_SIBLINGS;
  const failing = (text: string) => {
    const o = outcomeOf(text);
    return o?.mark === 'fail' && (marked(text, o) || unmarkedSiblings(text, o));
  };
  return { failing };
}

/**
 * The severity of a failing check among passing ones, not damped by how many checks fail: more
 * than an error message's, for it names what failed.
 */
export const CHECK_SEVERITY = 14;
/** What is left of a failing check's worth per one shown: each names another thing to fix. */
export const CHECK_DECAY = 0.85;

/** How far above a failing check its title is looked for, over the checks before it. */
const TITLE_SPAN = 30;

/**
 * The title of a failing check (as `failing`, from checksOf, reads it): the nearest line above it, over the checks of its indentation
 * (and their deeper details), that is no check itself: `# limits array indices` above `ok 127 …`
 * and `not ok 128 …`. None when a blank or a less indented line comes first (a parent header is
 * found as such), or when the checks run on further than TITLE_SPAN lines.
 */
export function checkTitle(
  at: (n: number) => string | undefined,
  n: number,
  failing: (text: string) => boolean,
): number | undefined {
  const text = at(n);
  if (text === undefined || !failing(text)) return undefined;
  const own = indentOf(text);
  const said = unmarked(text);
  // A check that names itself needs no title: one that says what its siblings say does.
  let alike = false;
  for (let k = n - 1; k >= Math.max(1, n - TITLE_SPAN); k--) {
    const above = at(k);
    if (above === undefined || above.trim() === '' || indentOf(above) < own) return undefined;
    if (indentOf(above) > own) continue;
    if (outcomeOf(above)) {
      alike ||= unmarked(above) === said;
      continue;
    }
    return alike && /[A-Za-z]{2}/.test(above) ? k : undefined;
  }
  return undefined;
}

const START_MARK = /^(?:not ok\b|ok\b|PASS(?:ED)?\b|FAIL(?:ED)?\b|[✓✔√✖✗✘✕×]|\[\s*\w+\s*\]|\d{1,4}\))\s*/;
const END_MARK =
  /\s*(?:\.\.\.\s*)?(?:ok|OK|PASS|PASSED|passed|F|E|FAIL|FAILED|ERROR|failed|[✓✔√✖✗✘✕×]|\((?:FAILED|FAIL|ERROR)(?:\s*-\s*\d+)?\))$/;

/** What a check says but for its outcome, numbers masked (`ok 127 should be equal` → `should be equal`). */
const unmarked = (text: string) =>
  template(text.trim().replace(TRAILER, '').replace(START_MARK, '').replace(END_MARK, ''));

/** A numbered title (`15) Lexer hr hr`, `  2) Suite should x`), as failure reports list them. */
const NUMBERED = /^\s{0,4}\d{1,4}\)\s+\S*[A-Za-z]{2}/;
/** A name in a rule of underscores (`____ test_x ____`, `_ Suite.test (a=1) _`): a failure's title. */
const FRAMED = /^_+ +\S.*[A-Za-z]{2}.*\S +_+\s*$/;

/**
 * Whether a line is the title of a failure of a failed run: a name in a rule of underscores, or a
 * numbered title heading a deeper block (`15) Lexer hr hr` above `  Message:`). Its words say
 * which check failed, and rarely an error word.
 */
function isFailureTitle(text: string, next: string | undefined): boolean {
  if (FRAMED.test(text)) return true;
  return NUMBERED.test(text) && next !== undefined && next.trim() !== '' && indentOf(next) > indentOf(text);
}

/**
 * Evens out the worth of the failing checks among passing ones: each is a thing to fix, worth
 * what the best of them is, but for its position (the end and the start still count). How many
 * words a check's title has, and so the template the miner put it in, says nothing of it: the
 * first failing check comes first. `position` gives a line's worth for where it is.
 */
export function evenChecks(
  held: Iterable<{ line: number; worth: number; check?: boolean }>,
  position: (line: number) => number,
): void {
  const checks = [...held].filter((h) => h.check === true);
  if (checks.length < 2) return;
  let best = Number.NEGATIVE_INFINITY;
  for (const h of checks) best = Math.max(best, h.worth - position(h.line));
  for (const h of checks) h.worth = best + position(h.line);
}

/** The severity of a numbered failure's title: as much as a failing check's name. */
const TITLE_SEVERITY = 10;

/** A held line as marked by markFailing. */
interface Marked {
  line: number;
  text: string;
  sev: number;
  check?: boolean;
  title?: boolean;
}

/**
 * Marks the failing checks among the held lines (`failing`) as severe as an error, whatever their
 * words, and, in a run that failed, the failures' titles (see isFailureTitle). Both keep more of
 * their worth per alike one shown than an error does: each names another thing to fix (a
 * numbered report's `3) suite` after `1)` and `2)`, as much as a third `✖ name`).
 */
export function markFailing<T extends Marked>(
  held: ReadonlyMap<number, T>,
  failing: (h: T) => boolean,
  success: boolean,
): void {
  for (const h of held.values())
    if (failing(h)) {
      h.sev = Math.max(h.sev, CHECK_SEVERITY);
      h.check = true;
    } else if (!success && isFailureTitle(h.text, held.get(h.line + 1)?.text)) {
      h.sev = Math.max(h.sev, TITLE_SEVERITY);
      h.title = true;
    }
}
