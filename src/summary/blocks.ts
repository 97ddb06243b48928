/**
 * A salient line's block: the lines under it that say why (an assertion's expected and
 * received values, diff markers, the message under a panic's location, the first frame in the
 * project's own files or, above an exception's message, the last, the line naming the cause),
 * and its parent header (the nearest less-indented line above: the file a linter's finding
 * belongs to, the test a failure is in).
 */
import { sameRecord } from './record.js';
import { indentOf, isLocation, scoreLine, shape } from './salience.js';
import { isCaretLine } from './source-echo.js';
import { isOwnLocation } from './worth.js';

/** Reads a held line's text by number; undefined when the line is not held. */
export type LineAt = (line: number) => string | undefined;

const DETAIL =
  /^\s*(?:expected|received|actual|assert|assertionerror|difference|diff\b|left|right|got|want|detail|hint|statement|context|message)\b.{0,12}[:=(]|^\s*[-+]{1,2}\s*(?:expected|received|actual)\b|^\s*E\s{2,}\S/i;
const DIFF_MARK = /^\s*[-+](?![-+])\s*\S/;
/** The line a code frame points at: `> 17 |   expect(x).toBe(false)`. */
const POINTED = /^\s*>\s*\d+\s*\|/;
const CAUSE =
  /\b(?:caused by|because|reason|cause)\b|\b(?:ENOENT|ENOTFOUND|EACCES|ECONNREFUSED|EADDRINUSE)\b/i;
const PANIC = /\bpanic(?:ked)?\b/i;
/** An exception's message: `org.opentest4j.AssertionFailedError: expected: <bar> but was: <=bar>`. */
const MESSAGE = /^\s*(?:[a-z][\w$]*\.)*[A-Z][A-Za-z]*(?:Error|Exception|Failure)\b(?:\s*\[[\w-]+\])?:/;
/**
 * A label with its value on the next line (`Expected:`, `Got:`, `Error:`, `with expansion:`,
 * `---- Result was:`): a doctest's, testify's, catch2's, busted's, tcltest's and unittest's way
 * to show what a check compared.
 */
const BARE_LABEL = /^\s*(?:[-=#>*]{2,}\s+)?[A-Za-z][\w ()/,'-]{0,48}:\s*$/;
/** A label's words that say it holds what was compared or what went wrong. */
const COMPARED =
  /\b(?:expect\w*|actual|got|received|result|want(?:ed)?|error|failure|reason|message|diff|expansion|value)\b/i;
export const isLabel = (text: string) => BARE_LABEL.test(text) && COMPARED.test(text);
/** A line's score (see scoreLine) from which it reads as an error of its own. */
const STRONG = 10;
/** A rule of one character, ten or more (`*****`, `-----`, `═════`). */
const SEPARATOR = /^\s*([*=_~#─━═-])\1{9,}\s*$/;
const BLOCK_SPAN = 24;
const MAX_BLOCK = 5;
const PARENT_SPAN = 80;

/** An assertion's expected or received value, or a diff marker line (see also isLabel). */
export function isBlockDetail(text: string): boolean {
  return DETAIL.test(text) || DIFF_MARK.test(text);
}

/**
 * Whether `next`, the line after `line`, is the rest of its message, wrapped: `line` ends on a
 * word, not on punctuation, and `next` is more indented and starts no other finding (no digit
 * or error word at its start): `  216 | ERROR | [ ] Visibility must be declared on method`
 * above `     |       |     "throwableToString"`.
 */
export function continues(line: string, next: string): boolean {
  return (
    /[A-Za-z0-9_]$/.test(line) &&
    indentOf(next) > indentOf(line) &&
    !/^\s*(?:\d|[A-Za-z]*(?:error|warning|fail))/i.test(next) &&
    next.trim().length > 0
  );
}
const blank = (text: string) => text.trim() === '';
/**
 * Whether `next`, right under a failure's title that names its place, is its message: no place of
 * its own, no shallower, no error of its own, no record of its own (`Failure ('test-x.R:4'):
 * Encoding` above `toJSON(NA) not equal to "[null]".`).
 */
const saysWhy = (header: string, next: string) =>
  isLocation(header) &&
  !isLocation(next) &&
  !/^\s*[[{]/.test(next) &&
  indentOf(next) >= indentOf(header) &&
  scoreLine(next).score < STRONG;
/** A line whose first word is a number: an item of a numbered list (`  1) title`, `#3`). */
const numbered = (text: string) => /^\s*(?:\d+[).:]|#\d+|\(\d+\)|\[\d+\])\s/.test(text);

/**
 * The best lines of the block under line `n`, in line order (at most MAX_BLOCK, and its first own
 * frame when the values filled them). `helper` tells a helper's frame (see frames.ts): a later
 * own frame that is none is taken instead.
 */
export function blockOf(
  at: LineAt,
  n: number,
  isHeader: (text: string) => boolean,
  helper: (text: string) => boolean = () => false,
): number[] {
  const header = at(n);
  if (header === undefined) return [];
  const indent = indentOf(header);
  const picked: number[] = [];
  let cause = false;
  /** The own frame picked (the first), and the last own frame after it. */
  let outer: number | undefined;
  let nearer: number | undefined;
  let swapped = false;
  const panic = PANIC.test(header);
  let echoed = false;
  let blanks = 0;
  // The line that is a picked label's value (see BARE_LABEL): it says what the label only names.
  let value = isLabel(header) ? n + 1 : undefined;
  for (let k = n + 1; k <= n + BLOCK_SPAN; k++) {
    const text = at(k);
    if (text === undefined) break;
    if (blank(text)) {
      if (++blanks > 2) break;
      continue;
    }
    blanks = 0;
    // A rule of one character (`*****`, `-----`, `═════`) after what the block says ends it: it
    // parts one failure from the next (a doctest's, unittest's, testthat's report).
    if (picked.length > 0 && SEPARATOR.test(text)) break;
    // The block ends at the next header: a line as salient as an error, no deeper than this one.
    if (indentOf(text) <= indent && isHeader(text)) break;
    // The next failure of a numbered list (`  2) …` after `  1) …`) ends the block.
    if (indentOf(text) <= indent && numbered(header) && shape(text, 1) === shape(header, 1)) break;
    if (picked.length >= MAX_BLOCK) {
      // A block full of values still says where: its first own frame comes too.
      if (outer !== undefined || !isOwnLocation(text)) continue;
      picked.push(k);
      break;
    }
    // (A value that is an error of its own, `--- FAIL: x` under `Want:`, is the next finding.)
    if (k === value && !isLabel(text) && scoreLine(text).score < STRONG) {
      picked.push(k);
      continue;
    }
    // The message under a panic's location or a failure's title (or under a first line that
    // says it in words: `Unexpected exception:…` above `…AssertionFailedError: Unexpected…`).
    if (
      picked.length === 0 &&
      (k === n + 1 ? panic || MESSAGE.test(text) || saysWhy(header, text) : k === n + 2 && MESSAGE.test(text))
    )
      picked.push(k);
    else if (!echoed && !isCaretLine(text) && isCaretLine(at(k + 1) ?? '')) {
      // The source line a caret under it points into: what the finding is about.
      echoed = true;
      picked.push(k);
    } else if (
      DETAIL.test(text) ||
      DIFF_MARK.test(text) ||
      POINTED.test(text) ||
      (isLabel(text) && !blank(at(k + 1) ?? ''))
    ) {
      picked.push(k);
      if (isLabel(text)) value = k + 1;
    } else if (isOwnLocation(text)) {
      if (outer === undefined) {
        outer = k;
        picked.push(k);
      } else if (!swapped && nearer === undefined && helper(at(outer) ?? '') && !helper(text)) {
        // A helper's frame, in every stack that calls it: the test's own frame after it says which.
        picked.splice(picked.indexOf(outer), 1, k);
        outer = k;
      } else if (!swapped) nearer = k;
    } else if (!cause && CAUSE.test(text)) {
      cause = true;
      picked.push(k);
    } else if (!swapped && outer !== undefined && MESSAGE.test(text)) {
      // An exception under its frames (most recent call last): the own frame nearest it says
      // where, not the outermost one.
      swapped = true;
      if (nearer !== undefined) picked.splice(picked.indexOf(outer), 1, nearer);
      // ...and the message itself, what the traceback says.
      picked.push(k);
    }
  }
  return picked.sort((a, b) => a - b);
}

/**
 * The nearest less-indented non-empty line above an indented line `n`, if held. Across one blank
 * line only a title that stands alone and names a location (`src/a.js:3:1 lint/rule ━━━` above
 * `  × message`).
 */
export function parentOf(at: LineAt, n: number): number | undefined {
  const text = at(n);
  if (text === undefined) return undefined;
  const indent = indentOf(text);
  if (indent === 0) return undefined;
  for (let k = n - 1; k >= Math.max(1, n - PARENT_SPAN); k--) {
    const above = at(k);
    if (above === undefined) return undefined;
    // A parent is in the same paragraph: a blank line ends the search, but for a lone title.
    if (blank(above))
      return k === n - 1
        ? (title(at, k - 1, indent) ?? shortTitle(at, k - 1, indent) ?? loneTitle(at, k - 1, indent))
        : undefined;
    // A rule of dashes or box characters is no header: the line above it may be.
    if (indentOf(above) < indent && /[A-Za-z]{2}/.test(above)) return k;
  }
  return undefined;
}

/**
 * Line `k` when it is a one-line paragraph no deeper than `indent` that opens with a title's mark
 * (`  ❯ Number | max / pass validation…` above `  Assertion Error: …`, `  ● Suite › name` above
 * `    expect(received)…`): a failure's title over its message in a report of failures.
 */
function loneTitle(at: LineAt, k: number, indent: number): number | undefined {
  const text = at(k);
  const before = at(k - 1);
  if (text === undefined || indentOf(text) > indent || !TITLE_MARK.test(text)) return undefined;
  return k === 1 || (before !== undefined && blank(before)) ? k : undefined;
}

/** A title's mark before its words: a pointer, a bullet or a fail mark. */
const TITLE_MARK = /^\s*[❯›▶►●•✖✗✘✕×]\s+\S*[A-Za-z]{2}/;

/** Line `k` when it is a one-line paragraph less indented than `indent` that names a location. */
function title(at: LineAt, k: number, indent: number): number | undefined {
  const text = at(k);
  const before = at(k - 1);
  if (text === undefined || blank(text) || indentOf(text) >= indent || !isLocation(text)) return undefined;
  return k === 1 || (before !== undefined && blank(before)) ? k : undefined;
}

/**
 * The first line of the short paragraph ending at line `k`, when it is less indented than
 * `indent` and opens its paragraph: a failure's title above its message (`  1) python`,
 * `       should markup numbers:`, a blank line, `      AssertionError: …`).
 */
function shortTitle(at: LineAt, k: number, indent: number): number | undefined {
  // Up to the paragraph's first line, every line deeper than it (the path of titles).
  let deepest = -1;
  for (let j = k; j > Math.max(0, k - SHORT_TITLE); j--) {
    const text = at(j);
    if (text === undefined || blank(text)) return undefined;
    const before = at(j - 1);
    const opens = j === 1 || (before !== undefined && blank(before));
    if (!opens) {
      const own = indentOf(text);
      deepest = deepest === -1 ? own : Math.min(deepest, own);
      continue;
    }
    const own = indentOf(text);
    return j < k && own < indent && own < deepest && /[A-Za-z]{2}/.test(text) ? j : undefined;
  }
  return undefined;
}

const SHORT_TITLE = 3;

/**
 * The rest of a title's paragraph when the title was found across a blank line (see
 * shortTitle): the deeper lines under it that name the failing test (`  1) context`, then
 * `       provides the correct classes:`, a blank line, the message).
 */
function titlePath(at: LineAt, parent: number, n: number): number[] {
  if (parent >= n - 2 || n - 2 - parent >= SHORT_TITLE || !blank(at(n - 1) ?? '')) return [];
  const path: number[] = [];
  for (let k = parent + 1; k < n - 1; k++) {
    const text = at(k);
    if (text === undefined || blank(text) || indentOf(text) <= indentOf(at(parent) ?? '')) return [];
    path.push(k);
  }
  return path;
}

/**
 * The frame a plain code line sits under, directly above it and less indented, in the project's
 * own files: `  File "t.py", line 171, in test` above `    assert f(x) == 2`. Without it the
 * code line says what, not where.
 */
export function frameAbove(at: LineAt, n: number): number[] {
  const parent = parentOf(at, n);
  return parent === n - 1 && isOwnLocation(at(parent) ?? '') ? [parent] : [];
}

/**
 * The parent headers of line `n`: its parent, and the first line of the parent's paragraph when
 * that is at most two lines above it and no deeper (`In src/x.sh line 41:` above the code line a
 * finding points at).
 */
export function parentsOf(at: LineAt, n: number): number[] {
  const parent = parentOf(at, n);
  if (parent === undefined) return [];
  const path = titlePath(at, parent, n);
  if (path.length > 0) return [parent, ...path];
  const indent = indentOf(at(parent) ?? '');
  for (let k = parent - 1; k >= Math.max(1, parent - 2); k--) {
    const above = at(k);
    if (above === undefined || blank(above) || indentOf(above) > indent) return [parent];
    const before = at(k - 1);
    if (k === 1 || (before !== undefined && blank(before)))
      return /[A-Za-z]{2}/.test(above) ? [k, parent] : [parent];
  }
  return [parent];
}

/**
 * The line right above line `n` when it introduces it: it ends with a colon and is no deeper
 * (`should Vary: Accept:` above `Error: expected "Vary"…`, the test's own title under its
 * suites).
 */
export function introducer(at: LineAt, n: number): number[] {
  const text = at(n);
  const above = at(n - 1);
  if (text === undefined || above === undefined || blank(above) || !/:\s*$/.test(above)) return [];
  return indentOf(above) >= indentOf(text) || n - 1 === 0 ? [n - 1] : [];
}

/** How many lines a line ending with a colon brings (see introduced). */
const INTRODUCED = 3;

/**
 * What a lesser salient line brings when it ends with a colon: the deeper lines right under it,
 * what it introduces (`…the following parameter of f(int mode) is not documented:` above
 * `  parameter 'mode'`).
 */
export function introduced(at: LineAt, n: number, raw: LineAt = at): number[] {
  const text = at(n);
  if (text === undefined) return [];
  const out: number[] = [];
  // The rest of its log record (see record.ts), read with the prefix a tag may be (tags.ts).
  const own = raw(n) ?? '';
  for (let k = n + 1; k <= n + INTRODUCED && sameRecord(own, raw(k) ?? ''); k++) out.push(k);
  if (out.length > 0 || !/:\s*$/.test(text)) return out;
  for (let k = n + 1; k <= n + INTRODUCED; k++) {
    const next = at(k);
    if (next === undefined || blank(next) || indentOf(next) <= indentOf(text)) break;
    out.push(k);
  }
  return out;
}

/** How far under a lesser finding the source line a caret points into is looked for. */
const ECHO_SPAN = 6;

/**
 * The source line a caret points into under a lesser finding (a warning, a note), within its
 * paragraph: `src/a.erl:257:58: variable 'Ps' is unbound`, then `%  257| foo(Ps)` and the caret
 * under it. [] when there is none.
 */
export function echoUnder(at: LineAt, n: number): number[] {
  for (let k = n + 1; k <= n + ECHO_SPAN; k++) {
    const text = at(k);
    if (text === undefined || blank(text) || isCaretLine(text)) return [];
    if (isCaretLine(at(k + 1) ?? '')) return [k];
  }
  return [];
}
