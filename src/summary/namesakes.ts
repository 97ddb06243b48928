/**
 * Namesakes: a failure's details printed away from the line that names it. A test runner often
 * says which check failed in one place and why in another, linked only by the check's name:
 * TAP's `#   Failed test 'x'` with its `got:` and `expected:` lines before `not ok 11 - x`, a
 * runner's closing list of failures (`FAILED  suite/test-name`) far below each test's report
 * (`Test suite/test-name condition:`). The lines elsewhere that carry the name of a line with a
 * fail mark in words and say something (a status word, an error word at their start, an
 * assertion's values, a location, or a report's title framed by rules: `---- x stdout ----`) are
 * its details: the summary weighs them as failing checks. Pure; run on the bounded set of lines
 * the summary chooses from.
 */
import { isBlockDetail } from './blocks.js';
import { failMarked } from './checks.js';
import { isLocation, scoreLine } from './salience.js';
import { isPassLine, severity } from './worth.js';

/** A name carried by more lines than this is a common word, not one check's. */
const MAX_CARRIERS = 12;
/** How many failing lines' names are read (the first ones): enough for a run's failures. */
const MAX_FAILING = 64;
/** How many failing checks' names in words are looked for. */
const MAX_PHRASES = 16;
/** How many lines are linked at most: the failures' details, not a second output. */
const MAX_LINKED = 8;
/** How many lines one name links: a failure's details are in a place or two, not in every line that names it. */
const PER_NAME = 2;
/** A line longer than this is a dump (a whole report in one string), not a failure's detail. */
const MAX_WIDTH = 400;
/** An error's severity: a line that has it is shown on its own worth, not as a namesake. */
const ERROR = 10;
/** The least severity a namesake needs: a status word, a leading error word or an assertion's values, not a word in prose. */
const SAYS = 6;
/** A comment mark, read past as a tag (see tags.ts). */
const COMMENT = /^\s*#\s+/;

/** A word that may be a name: letters, digits, `_` and inner `-`. */
const WORD = /[A-Za-z_][\w-]*\w/g;
/** A check's name in one word: an identifier (`test_change`, `TestEvolve`, `from-minutes`), no prose word. */
const IDENT = /[_\d-]|[a-z][A-Z]/;
/** A path names a file, not a check: a test id's members after `::` do (`a/t.py::T::test_x`). */
const PATH = /\S*[/\\]\S*/g;
const MARK =
  /^\s*(?:not ok|FAIL(?:ED)?:?|ERROR:?|---\s*FAIL:?|[✖✗✘✕×]\s*(?:\[[^\]]*\]:?)?)\s*(?:\d+\s*)?-?\s*|\s*(?:\.\.\.\s*)?(?:FAIL(?:ED)?|ERROR|failed)\s*(?:\[[^\]]*\]|\([^)]*\))?\s*$/g;

const NONE: readonly string[] = [];

/** The one-word names of a line, each once. */
function namesOf(text: string, failing = false): readonly string[] {
  const words = failing ? text.replace(PATH, (p) => p.split('::').slice(1).join(' ')) : text;
  const out: string[] = [];
  for (const w of words.match(WORD) ?? NONE)
    if (w.length >= 6 && IDENT.test(w) && /[a-z]/.test(w) && !out.includes(w)) out.push(w);
  return out.length > 0 ? out : NONE;
}

/** A failing check's name in words (`... and stringification works`): its text but for its mark. */
function phraseOf(text: string): string | undefined {
  const p = text.replace(MARK, '').trim();
  return p.length >= 12 && /\s/.test(p) && /[a-z]{3}/.test(p) ? p : undefined;
}

/**
 * A fail mark in words (`not ok 11 - x`, `x ... FAILED`, `--- FAIL: TestX`, `✘ [fail]: x`): a check's outcome.
 * A symbol alone (`× message`) marks a finding as often as a check.
 */
const FAIL_WORD = /\bnot ok\b|\bFAIL(?:ED)?\b|\bfailed\b|\[\s*[Ff]ail(?:ed)?\s*\]/;
/** A value that reads as a mark (`level = ERROR`, `RuntimeError: FAIL`): no check's outcome. */
const VALUE = /[:=]\s*(?:FAIL(?:ED)?|ERROR|failed)\s*$/;
const failing = (text: string) =>
  FAIL_WORD.test(text) && (failMarked(text) || INNER_MARK.test(text)) && !VALUE.test(text);
/**
 * A runner's fail mark in capitals inside a line, before a name: a line of a report held in a
 * record (`{"Action":"output","Test":"TestCount","Output":"--- FAIL: TestCount (0.00s)\n"}`).
 */
const INNER_MARK = /(?:^|[\s"'])(?:---\s*)?FAIL(?:ED)?:\s+[A-Za-z_]/;
/** A frame of a stack: it carries every test's name that runs through it. */
const FRAME = /^\s*(?:at|File|in|from)\s/;

/** Whether 2 to MAX_CARRIERS lines hold `phrase` (counting stops past that). */
function fewCarry(lines: readonly { text: string }[], phrase: string): boolean {
  let n = 0;
  for (const l of lines) if (l.text.includes(phrase) && ++n > MAX_CARRIERS) return false;
  return n >= 2;
}

/** Whether a word says something on its own (a severity or count word): no check's name. */
const saysSomething = (word: string) => scoreLine(`${word} x`).score > 0;

/**
 * The lines (by number, of `lines` in line order) that carry the name of a line with a fail mark
 * elsewhere and say something: a severity word, a location or an assertion's values, but are no
 * error already nor a stack's frame nor a passing check. A name counts when at most
 * MAX_CARRIERS lines carry it.
 */
export function namesakes(lines: readonly { line: number; text: string }[], success: boolean): Set<number> {
  // Most outputs have no failing check to name (a build's warnings, a log): nothing to read then.
  const failures = lines.filter((x) => failing(x.text)).slice(0, MAX_FAILING);
  if (failures.length === 0) return new Set();
  const names = lines.map((l) => namesOf(l.text));
  const carriers = new Map<string, number>();
  for (const set of names) for (const w of set) carriers.set(w, (carriers.get(w) ?? 0) + 1);
  const wanted = new Set<string>();
  const phrases = new Set<string>();
  for (const l of failures) {
    const own = namesOf(l.text, true);
    for (const w of own) {
      const n = carriers.get(w) ?? 0;
      if (n >= 2 && n <= MAX_CARRIERS && !saysSomething(w)) wanted.add(w);
    }
    // A check named in prose only (`... and stringification works`) is looked for by its words.
    if (own.length > 0) continue;
    const p = phraseOf(l.text);
    if (p !== undefined && phrases.size < MAX_PHRASES && !phrases.has(p) && fewCarry(lines, p))
      phrases.add(p);
  }
  const uses = new Map<string, number>();
  const said = [...phrases];
  const carried = (text: string, i: number) => [
    ...(names[i] as readonly string[]).filter((w) => wanted.has(w)),
    ...said.filter((p) => text.includes(p)),
  ];
  const linked = new Set<number>();
  lines.forEach((l, i) => {
    if (linked.size >= MAX_LINKED || l.text.length > MAX_WIDTH) return;
    const by = carried(l.text, i).filter((w) => (uses.get(w) ?? 0) < PER_NAME);
    if (by.length === 0 || failing(l.text) || FRAME.test(l.text) || isPassLine(l.text)) return;
    // Read past a comment mark, as a tag (see tags.ts): `#   Failed test 'x'` leads with its word.
    const sev = severity(l.text.replace(COMMENT, ''), success);
    // The failing check's name alone is the title of its report, whose block says why.
    const title = (said.includes(titleOf(l.text)) && reported(lines, i)) || FRAMED.test(l.text);
    if (!title && (sev >= ERROR || (sev === 0 ? !isLocation(l.text) : sev < SAYS))) return;
    linked.add(l.line);
    for (const w of by) uses.set(w, (uses.get(w) ?? 0) + 1);
  });
  return linked;
}

/**
 * A name between two rules of one character (`---- src/lib.rs - f (line 12) stdout ----`,
 * `____ test_x ____`): the title of a report, which names what it is about.
 */
const FRAMED = /^\s*([-=_~*#])\1+\s+\S.*\S\s+\1{2,}\s*$/;

/** A line as a title: its text but for its indentation and a closing colon (`  should x:`). */
const titleOf = (text: string) => text.trim().replace(/:$/, '');

/** How many lines under a title its report is looked for in. */
const REPORT_SPAN = 4;

/**
 * Whether line `i`, a title, opens a report: a location or an assertion's values in the next
 * REPORT_SPAN lines (`test/parse.js:214` under `parse › x`), not a step listed again in a script.
 */
function reported(lines: readonly { line: number; text: string }[], i: number): boolean {
  const first = (lines[i] as { line: number }).line;
  for (let k = i + 1; k < lines.length; k++) {
    const l = lines[k] as { line: number; text: string };
    if (l.line > first + REPORT_SPAN) return false;
    if (isLocation(l.text) || isBlockDetail(l.text)) return true;
  }
  return false;
}

/** The namesakes among the held lines and the middle's candidates (see namesakes). */
export function linkNamesakes(
  lines: readonly { line: number; text: string }[],
  success: boolean,
): Set<number> {
  if (!lines.some((l) => failing(l.text))) return new Set();
  const byLine = new Map<number, { line: number; text: string }>();
  for (const l of lines) if (!byLine.has(l.line)) byLine.set(l.line, l);
  return namesakes(
    [...byLine.values()].sort((a, b) => a.line - b.line),
    success,
  );
}
