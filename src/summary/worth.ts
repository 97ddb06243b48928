/**
 * What one line is worth to an agent, by signals that hold for any tool: how rare its template
 * is (surprisal), severity words (counted little inside a huge template), a source location
 * (more for the project's own files than for a dependency's or the runtime's), verdict lines,
 * and its position (the end first, then the start).
 */
import { indentOf, isLocation, type Salience, scoreLine } from './salience.js';

/**
 * A passing check: never news, whatever its name says (`✓ returns an error when…`). The marks
 * are a table of words and symbols, not one tool's format.
 */
const PASS_START = /^\s*(?:[✓✔√]|PASS(?:ED)?\b|ok(?: \d+)?\b(?! *[:=])|\[\s*(?:OK|PASS(?:ED)?)\s*\])/;
const PASS_END = /(?:\.\.\. ok|\bPASSED|\bok|[✓✔])\s*(?:\(?[\d.]+ ?m?s\)?)?\s*$/;
const FAIL_WORD = /\b(?:fail|failed|failure|error|not ok)\b|[✗✘✕✖×]/i;

export function isPassLine(text: string): boolean {
  return (
    (PASS_START.test(text) || PASS_END.test(text)) &&
    !/^\s*not ok\b/.test(text) &&
    !FAIL_WORD.test(head(text))
  );
}

/** The first two words of a line: where a severity word says the line's kind. */
const head = (text: string) => text.trimStart().split(/\s+/, 2).join(' ');

/**
 * A frame of the runtime or of the test framework, by its package or its directory: `at
 * org.junit.…`, `at java.lang.reflect.…`, `…/unittest/case.py`, `…/_pytest/…`.
 */
const FRAMEWORK = String.raw`\bat (?:java|javax|jdk|sun|kotlin|scala|junit|org\.junit|org\.opentest4j|org\.apache\.maven|org\.gradle)\.|\/(?:unittest|_pytest|pluggy|doctest\.py)\b`;

/** A dependency's, the runtime's or the standard library's file: not the project's own. */
const FOREIGN = new RegExp(
  String.raw`node_modules|site-packages|dist-packages|\/usr\/(?:lib|share|local\/lib)\/|\bnode:|\binternal\/|<frozen |\.cargo\/registry|\/rustc\/[0-9a-f]|\/rustlib\/|\bjava\.base\/|\bjdk\.internal|\/lib\/python\d|\(native\)|\/\.m2\/|\/\.gradle\/|\bvendor\/|${FRAMEWORK}`,
);

/** Worth of a location on the line: a project's own `file:line` says where to look, as much as a warning's severity says. */
export function locationWorth(text: string): number {
  if (!isLocation(text)) return 0;
  return FOREIGN.test(text) ? 0.5 : 4;
}

/** Whether a line names a location in the project's own files. */
export function isOwnLocation(text: string): boolean {
  return isLocation(text) && !FOREIGN.test(text);
}

/** A verdict that may start with a pass mark: `✓ 12 passed`, `PASS 3 tests, 0 failed`. */
const VERDICT = /(?<!\bok )\b\d+ (?:passed|passing|failed|failing|tests?|specs?)\b(?!\s+\d+m?s\s*$)/i;

/** Severity and verdict of a line on its own; a weak error word counts less when the run succeeded. */
export function severity(text: string, success: boolean, scored: Salience = scoreLine(text)): number {
  const s = scored;
  if (s.score <= 0) return 0;
  if (isPassLine(text) && !VERDICT.test(text)) return 0;
  return s.weak && success ? s.score * 0.4 : s.score;
}

/** Severity inside a template of `count` lines: the 400th `warning: unused` says little. */
export function damp(count: number): number {
  return count <= 3 ? 1 : count <= 20 ? 0.7 : count <= 200 ? 0.5 : 0.35;
}

/** What is left of a plain line's worth per member of its template already shown. */
export const PLAIN_DECAY = 0.3;

/**
 * What is left of a line's worth per member of its template already shown. An error keeps more
 * when it names a location of its own, and more when its template is small: four failing
 * tests are four things to fix, four hundred alike warnings are one. An error is a line that
 * says so at its start or by a status mark (`csv-2.1 join FAILED`, `#   Failed test 'x'`, score 8
 * and up: see scoreLine), not only one in an error's own form.
 */
export function decayOf(sev: number, located: boolean, count: number): number {
  if (sev < ERROR_DECAY_FROM) return PLAIN_DECAY;
  const few = count <= 3 ? 0.7 : count <= 20 ? 0.5 : PLAIN_DECAY;
  return Math.max(located ? 0.5 : PLAIN_DECAY, few);
}

/** The severity from which a line keeps an error's worth per alike one shown (see decayOf). */
const ERROR_DECAY_FROM = 8;

/** Surprisal of a template of `count` lines among `total`: a singleton says much. */
export function surprisal(count: number, total: number): number {
  if (total <= 1) return 0;
  const bits = Math.log2(total / Math.max(1, count));
  return Math.min(4, bits / 2) - (count > 20 ? 1 : 0);
}

/** Weights of the position signal: the end matters most, then the start. */
export function position(line: number, total: number, tailRatio: number): number {
  const fromEnd = total - line;
  const fromStart = line - 1;
  const worth = 11.4 * tailRatio * 0.85 ** fromEnd + 20 * (1 - tailRatio) * 0.85 ** fromStart;
  // Far from both ends position says nothing: among alike lines there the first comes first
  // (the first error of a cascade is the one to fix), not the one a hair nearer the end.
  return worth < 0.01 ? 0 : worth;
}

/**
 * The bonus of a line new since the previous run: never reduced by the per-template penalty. It
 * is the information of the mark: one new line among thousands says much, a third of the lines
 * new (a re-run that lists every test again) says little about each.
 */
export function newBonus(fresh: number, lines: number): number {
  if (fresh <= 0) return NEW_BONUS;
  return Math.min(NEW_BONUS, Math.max(4, 4 * Math.log2(lines / fresh)));
}

const NEW_BONUS = 20;

/** A tally of both outcomes (`9 failed | 562 passed`) is the verdict among count lines. */
const TALLY_PASS = /\b\d[\d,]*\s+(?:passed|passing|succeeded|ok)\b|\b(?:passed|ok)\s*[:=]?\s*\d/i;
const TALLY_FAIL = /\b\d[\d,]*\s+(?:failed|failing|failures?|errors?)\b|\b(?:failed|failures?)\s*[:=]?\s*\d/i;

/** How far from the end the run's verdict line is looked for. */
const VERDICT_WINDOW = 30;
/**
 * How far from the end a failing count is looked for when the last lines hold none: a runner
 * that lists what failed, or what it skipped, after its tally (`Ran 1426 tests, … 31 unexpected`,
 * then 31 failures and 16 skipped tests; mocha's `7 failing`, then 140 lines of failures and
 * their stacks).
 */
const FAR_WINDOW = 300;
/** A failing count's score (see scoreLine). */
const FAILING_COUNT_SCORE = 13;

/**
 * The run's verdict (`Tests: 20 failed, 774 passed`, `Found 3 errors`): among the count lines of
 * the last lines, the most severe, a tally of both outcomes first, the last among equals. The summary reserves room for it, so
 * that no amount of news crowds it out.
 */
export function verdictLine(
  lines: Iterable<{ line: number; text: string }>,
  total: number,
): number | undefined {
  let best: { line: number; score: number } | undefined;
  for (const l of lines) {
    const atEnd = l.line > total - VERDICT_WINDOW;
    const far = !atEnd && l.line > total - FAR_WINDOW;
    if (!atEnd && !far && l.line > VERDICT_WINDOW) continue;
    const s = scoreLine(l.text);
    if (s.kind !== 'count' || s.score <= 0) continue;
    // Elsewhere, only a failing count: a tool that prints its verdict first (behave's
    // `Failing scenarios:` list and tallies), or lists its failures after it, where the end has
    // none, or only lesser counts.
    if (!atEnd && s.score < FAILING_COUNT_SCORE) continue;
    const score =
      s.score + (TALLY_PASS.test(l.text) && TALLY_FAIL.test(l.text) ? 1 : 0) - (atEnd ? 0 : far ? 0.25 : 0.5);
    if (!best || score > best.score || (score === best.score && l.line > best.line))
      best = { line: l.line, score };
  }
  return best?.line;
}

/** Count lines beside the verdict that are part of it, on each side at most. */
const TALLY_LINES = 3;

/**
 * The count lines right beside the verdict, at its indentation and with no line between: one
 * tally in several lines (`73 features passed, 4 failed`, `460 scenarios passed, 15 failed`,
 * `1878 steps passed, 15 failed`; `10 passing`, `2 failing`), told as one verdict.
 */
export function tallyBeside(at: (n: number) => string | undefined, verdict: number | undefined): number[] {
  if (verdict === undefined) return [];
  const own = at(verdict);
  if (own === undefined) return [];
  const out: number[] = [];
  for (const step of [-1, 1])
    for (let n = verdict + step, k = 0; k < TALLY_LINES; n += step, k++) {
      const text = at(n);
      if (text === undefined || indentOf(text) !== indentOf(own)) break;
      const s = scoreLine(text);
      if (s.kind !== 'count' || s.score <= 0) break;
      out.push(n);
    }
  return out;
}
