import { remembered } from '../memo.js';
import { hasLevelMark, levelMarkAt } from './levels.js';
import { isSourceEcho } from './source-echo.js';

/** How many leading white-space characters a line has. */
export const indentOf = (text: string) => text.length - text.trimStart().length;
/**
 * Salience: how much a single cleaned output line is worth showing to an agent when it sits in
 * the elided middle of a long output. Pure and table-tested.
 */

/** What kind of line it is, most important first. */
export type LineKind = 'error' | 'count' | 'warning' | 'hint' | 'plain';

export interface Salience {
  kind: LineKind;
  score: number;
  /** An error word inside a line that does not read as an error: worth less when the run succeeded. */
  weak?: boolean;
}

/**
 * The cheap first pass, run once over each chunk decoded as latin1 (so that string offsets equal
 * byte offsets) and matched case-insensitively: only lines holding one of these are examined
 * further. Every pattern below that can make a line salient must be reachable through one of
 * them. Each is a regex source starting with a literal lower-case letter, grouped by first letter
 * in the guard (a factored alternation runs several times faster than a flat one).
 */
const GUARD_WORDS = [
  'err',
  'fail',
  'warn',
  'panic',
  'exception',
  'traceback',
  'fatal',
  'assert',
  'cannot',
  "can't",
  'could not',
  "couldn't",
  'unable',
  'not found',
  'no such',
  'denied',
  'refused',
  'abort',
  'segmentation',
  'undefined',
  'unresolved',
  'passed',
  'passing',
  'pending',
  'skipped',
  'tests?[: ]',
  'summary',
  'lost',
  'success',
  'succeeded',
  'timeout',
  'timed out',
  'killed',
  'invalid',
  'missing',
  'incomplete',
  'problems?',
  'violation',
  'deprecated',
  'not ok',
  'upgraded',
  'newly installed',
  'added \\d',
  'removed \\d',
  'found \\d',
  'expected',
  'received',
  'caused by',
  'vulnerab',
  'ran \\d',
  'leak',
  'heap',
  'compiled',
  'built in',
  'done in',
  'finished',
  'total',
  // Every line naming a private key (a PEM marker among them, PuTTY's private part) is read for
  // key blocks.
  'private key',
  'private-lines:',
];

/**
 * Symbols and line starts, as their UTF-8 bytes read as latin1 (matched case-insensitively, as the
 * words are, so that \u00e3 also matches \u00c3): ✕ ✖ ✗ ✘ (U+2715-8),
 * × (U+00D7), ● (U+25CF), pytest's `E   ` detail lines, `--- FAIL`, make's `***`, sanitizer
 * `==123==` reports.
 */
const GUARD_SYMBOLS = [
  '\\u00e2\\u009c[\\u0095-\\u0098]',
  '\\u00e3\\u0097',
  '\\u00e2\\u0097\\u008f',
  '^e {2,}\\S',
  '^--- ',
  '\\*\\*\\*',
  '^==\\d+==',
  // A finding's level as one letter after its place (`lib/a.rb:12:5: W: …`): see LEVEL_LETTER.
  ': (?:e|f|w): ',
  '\\be\\d{3,5}\\b',
];

const escapeRe = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The guard's alternatives: words grouped by first letter, then command hints. */
function guardWords(extra: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const word of [...GUARD_WORDS, ...extra.map((w) => escapeRe(w.toLowerCase()))]) {
    const first = word[0] as string;
    if (!/[a-z0-9]/.test(first)) continue;
    groups.set(first, [...(groups.get(first) ?? []), word.slice(1)]);
  }
  const parts = [...groups].map(([first, rests]) =>
    rests.length === 1 ? `${first}${rests[0]}` : `${first}(?:${rests.join('|')})`,
  );
  const loose = extra.filter((w) => !/^[a-z0-9]/i.test(w)).map((w) => escapeRe(w.toLowerCase()));
  return [...parts, ...loose];
}

/** Builds the guard for latin1 text (case-insensitive); `extra` are literal words (command hints). */
export function buildGuard(extra: readonly string[] = []): RegExp {
  return new RegExp([...guardWords(extra), ...GUARD_SYMBOLS].join('|'), 'gmi');
}

const STRONG_ERROR_START =
  /^\s*(?:\[(?:ERROR|FATAL|FAIL(?:ED)?|CRITICAL|PANIC|EMERG|ALERT)\]|(?:ERROR|FATAL|CRITICAL|PANIC)\b[:\s]|(?:error|fatal error|fatal|panic)(?:\[[\w-]+\])?:|(?:E|F)\s{2,}\S|FAIL(?:ED)?\b|--- FAIL\b|npm (?:ERR!|error)|[✖✗✘✕×●]\s|Error:|(?:[a-z][\w$]*\.)*[A-Z][A-Za-z]*(?:\/?Error|Exception)\b(?:\s*\[[\w-]+\])?(?::|$)|not ok\b|Traceback \(most recent call last\)|thread '.*'(?: \(\d+\))? panicked|SUMMARY: \w*Sanitizer|==\d+==\s*(?:ERROR:|Invalid (?:read|write|free)|Conditional jump|Mismatched free|Syscall param|Use of uninitialised|Source and destination overlap|Process terminating)|make(?:\[\d+\])?: \*\*\*|\*\*\* |Caused by:|> Task .* FAILED)/;
const LOCATED_ERROR =
  /(?:[\w./\\-]+\.\w+(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\))\s*[:-]?\s*(?:error|fatal error|fatal|runtime error)\b|\berror (?:TS|CS|C|E)\d+\b|^\s*\d+:\d+\s+error\b|^\s*(?:\[ERROR\]\s*)?[\w./\\-]+\.\w+:\[\d+,\d+\] )/i;
/**
 * An exception's name right after a location (case-sensitive): where a test failed, as a runner
 * sums it up (`src/attr/_make.py:644: TypeError`), or a located message (`src/a.js:3:4: TypeError: x`).
 */
const LOCATED_EXCEPTION =
  /[\w./\\-]+\.\w+:\d+(?::\d+)?:\s*(?:[a-z_$][\w$]*\.)*[A-Z][A-Za-z]*(?:Error|Exception)\b(?::|\s*$)/;
// Whole words only: not after or before `-`, `/`, `.` or `_` (compiler flags -Wfatal-errors,
// file names errors.c, package names liberror-perl, identifiers on_error).
const ERROR_WORD =
  /(?<![-/._])\b(?:error|errors|fatal|panic(?:ked)?|exception|traceback|failed|failure|failures|fail|assertion|assert(?:ion)?error|segmentation fault|core dumped|undefined (?:reference|variables?|names?|index|offset|methods?|local|constants?|functions?|symbols?|propert(?:y|ies)|types?)|unresolved|cannot|can't|could ?n[o']t|unable to|no such file|not found|permission denied|refused|aborted|killed|timed out|invalid|missing|violation|definitely lost|leak(?:ed|s)?)\b(?![-/._]\w)|✖|✗|✘|✕/i;
const STATUS_MARK = /(?<![-/._])\b(?:FAILED|FAILURE|FAIL|ERROR|FATAL|PANIC)\b(?![-/._]\w)/;
const WARNING_START = /^\s*(?:\[(?:WARN|WARNING)\]|WARN(?:ING)?\b[:\s]|warning(?:\[[\w-]+\])?:|npm warn)/i;
const WARNING_WORD = /(?<![-/._])\bwarn(?:ing|ings)?\b(?![-/._]\w)|\bdeprecated\b/i;
const COUNT_LINE =
  /(?<![\d:.]\s*|[,/]|\bok\s+)\b\d[\d,]*\s+(?:errors?|warnings?|failed|failing|failures?|passed|passing|pending|skipped|tests?|problems?|succeeded|specs?|examples?|suites?|checks?|upgraded|newly installed|vulnerabilit(?:y|ies))\b|(?<![./\w-])(?:errors?|warnings?|failures?|failed|passed|tests?)\s*[:=]\s*\d[\d,]*(?![\w.])(?!\s+[a-z]+\s+[a-z])|\bBUILD (?:SUCCESS|FAILURE|FAILED|SUCCESSFUL)\b|\bERROR SUMMARY\b|\b(?:definitely|indirectly|possibly) lost:|\bTests?:?\s+\d|\bTest Suites:|\b(?:added|removed|changed|audited) \d+ packages?\b|\bSuccessfully (?:installed|built)\b|\bRan \d+ tests?\b|^\s*(?:OK|FAILED)(?: \(|$)|\btest result:|\bcompiled (?:successfully|with \d+)|\bbuilt in \d|^=+ .*\b(?:passed|failed|errors?)\b.* =+$|\bin total\b|^# (?:tests|pass|fail|suites)\s+\d|^\s*[^\w\s]\s*(?:tests|pass|fail|suites)\s+\d+\s*$|\bfound \d[\d,]*\s+[a-z]|\bfound:\s*\d/i;
const FAILING_COUNT =
  /[1-9](?:[\d,]*\d)?\s+(?:tests?\s+)?(?:errors?|failed|failing|failures?|problems?|unexpected|broken)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*[1-9]|^\s*[^\w\s]\s*fail\s+[1-9]|\bBUILD FAIL|\bTests?:?\s+[1-9]\d* failed|^\s*FAILED\b|test result: FAILED|compiled with [1-9]/i;
const ZERO_COUNT =
  /(?:^|[^\d,])0\s+(?:errors?|failed|failing|failures?|problems?)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*0\b|^\s*[^\w\s]\s*fail\s+0\b|\bno (?:errors?|failures?|problems?)\b/i;
/**
 * Advice on how to learn more, at the start of a message (behind a level tag or a prompt mark):
 * `[ERROR] Re-run Maven using the -X switch`, `npm ERR! A complete log of this run can be found
 * in:`, `For more information about this error, try…`, `* Try:`, `-> [Help 1]`.
 */
const ADVICE_START =
  /^\s*(?:\[\w+\]\s*|npm (?:ERR!|error|warn)\s*|[>*]\s*|(?:note|help|hint|info):\s*)?(?:re-?run\b|run (?:it |this |the command )?(?:again )?with\b|(?:for|to get) more (?:information|info|details|help)\b|to see the full\b|to enable\b|please (?:refer to|read|see)\b|a complete log of this run\b|to learn more\b|try:|-> \[help \d+\]|\[help \d+\])/i;
/**
 * An expected failure: a check that fails as its author said it would (a TAP `# TODO` or `# SKIP`
 * directive on a `not ok` line). It fails nothing: it is no error.
 */
export const EXPECTED_FAILURE = /^\s*not ok\b.*#\s*(?:TODO|SKIP)\b/i;
/**
 * A finding's level as one capital letter right after its place (`lib/a.rb:1820:9: W:
 * Lint/UselessAssignment: …`, `src/m.py:3:0: E: …`): E and F are errors, W a warning; C and R
 * (convention, refactor) say nothing is wrong.
 */
const LEVEL_LETTER = /^\s*[\w./\\@+-]+\.[A-Za-z]\w{0,5}:\d+(?::\d+)?: ([EFW]): /;
const NOISE_START = /^\s*(?:\[(?:DEBUG|TRACE|VERBOSE)\]|DEBUG\b|TRACE\b|\d+\s+DEBUG\b)/;
/** Details that explain a failure: an assertion's expected and received values. */
const DETAIL =
  /^\s*(?:Expected|Received|expected|actual|Actual|got|want)\b.{0,6}[:=]|^\s*[-+] (?:Expected|Received)\b/;
const LOCATION =
  /(?:[\w./\\@-]+\.[A-Za-z]\w{0,5}(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\)|"?, line \d+)|-->\s*\S+:\d+|\bat\s+\S+\s+\(?[\w./\\-]+:\d+)/;

/**
 * Whether the line's first word is an error word (after its indentation) and words follow it: a
 * message, not a word in a table (`errors               82`).
 */
function leadsWithErrorWord(line: string): boolean {
  const m = ERROR_WORD.exec(line);
  if (m === null || m.index !== line.length - line.replace(COMMENT_MARK, '').length) return false;
  return /[A-Za-z]{2}/.test(line.slice(m.index + m[0].length));
}

/**
 * Indentation, and a comment mark before words: a test protocol's diagnostics are comments
 * (`#   Failed test at t/x.t line 46.`, then its `got:` and `expected:` lines).
 */
const COMMENT_MARK = /^\s*(?:#+\s+)?/;

/** Where the first error word of a line is (`TypeError`, `failed`, `cannot`), or -1. */
export function errorWordAt(line: string): number {
  return earlier(
    earlier(line.search(/[A-Za-z]*(?:Error|Exception)\b/), line.search(ERROR_WORD)),
    levelMarkAt(line),
  );
}

/** The earlier of two positions, either of which may be -1 (none). */
const earlier = (a: number, b: number) => (a === -1 ? b : b === -1 ? a : Math.min(a, b));

/** Whether a line looks like a source location (`file.c:12:3`, `--> src/x.rs:4:9`, `at f (x.js:1)`). */
export function isLocation(line: string): boolean {
  return LOCATION.test(line);
}

/**
 * Scores one cleaned line. `hints` are lower-cased words from the command line; a line naming
 * one of them is worth showing even when it is not an error. A weak error (an error word in a
 * line that does not start like an error) is `weak`, so that a listing naming liberror-perl's
 * "error/exception handling" in a package description does not pass for a failure.
 */
export function scoreLine(line: string, hints: readonly string[] = []): Salience {
  return hints.length > 0 ? scoreOf(line, hints) : scoreOfLine(line);
}

const scoreOfLine = remembered((line) => Object.freeze(scoreOf(line, [])));

function scoreOf(line: string, hints: readonly string[]): Salience {
  // Empty, or a level tag alone (`[ERROR] `): nothing to read.
  if (line.length === 0 || /^\s*(?:\[\w+\]\s*)?$/.test(line)) return { kind: 'plain', score: 0 };
  if (EXPECTED_FAILURE.test(line) || isSourceEcho(line)) return { kind: 'plain', score: 0 };
  let kind: LineKind = 'plain';
  let score = 0;
  let weak = false;
  const strong =
    STRONG_ERROR_START.test(line) ||
    LOCATED_ERROR.test(line) ||
    // The regex is tried only where its name can be: it is unanchored, and most lines have none.
    (/Error|Exception/.test(line) && LOCATED_EXCEPTION.test(line)) ||
    // A log level in capitals inside a line (see levels.ts).
    hasLevelMark(line);
  const letter = LEVEL_LETTER.exec(line)?.[1];
  if (strong || letter === 'E' || letter === 'F') {
    kind = 'error';
    score = 12;
  } else if (WARNING_START.test(line) || letter === 'W') {
    kind = 'warning';
    score = 4;
  } else if (ERROR_WORD.test(line)) {
    kind = 'error';
    // A status word in capitals is a tool's mark (`test_x (FAILED - 1)`, `[gw0] [ 55%] FAILED
    // tests/x.py::t`), not prose: more than an error word in a sentence or a name. So is an
    // error word that opens the line (`Assertion with == failed`, `Invalid integer "+0": …`):
    // the line says what went wrong, where a name that holds the word says something else.
    score = STATUS_MARK.test(line) || leadsWithErrorWord(line) ? 8 : 4;
    weak = true;
  } else if (DETAIL.test(line)) {
    kind = 'error';
    score = 6;
  } else if (WARNING_WORD.test(line)) {
    kind = 'warning';
    score = 2;
  }
  if (COUNT_LINE.test(line)) {
    const failing = FAILING_COUNT.test(line);
    const zero = !failing && ZERO_COUNT.test(line);
    if (zero && kind === 'error' && !strong) score = 0;
    kind = 'count';
    weak = false;
    score = Math.max(score, failing ? 13 : zero ? 6 : 10);
  }
  if (hints.length > 0) {
    const lower = line.toLowerCase();
    if (hints.some((h) => lower.includes(h))) {
      if (kind === 'plain') kind = 'hint';
      score += 3;
    }
  }
  if (score > 0 && NOISE_START.test(line)) score = Math.max(1, score - 8);
  // How to learn more is not what went wrong: a build tool's closing advice says nothing new.
  if (score > 0 && ADVICE_START.test(line)) return { kind: 'plain', score: 0 };
  return weak ? { kind, score, weak } : { kind, score };
}

const STOP_HINTS = new Set([
  'install',
  'build',
  'test',
  'tests',
  'exec',
  'exit',
  'true',
  'false',
  'echo',
  'then',
  'else',
  'done',
  'sudo',
  'with',
  'from',
  'into',
  'only',
  'offline',
  'verbose',
  'quiet',
  'check',
  'update',
  'upgrade',
  'start',
  'release',
  'debug',
  'needles_file',
  'needles_exit',
]);

/** Words of a command line that hint at what matters in its output (`apt-get install inkscape` → inkscape). */
export function hintWords(command: readonly string[]): string[] {
  const words = new Set<string>();
  for (const arg of command.slice(1)) {
    for (const w of arg.toLowerCase().split(/[^a-z0-9_+.-]+/)) {
      const word = w.replace(/^[.-]+|[.-]+$/g, '');
      if (word.length >= 4 && /[a-z]/.test(word) && !STOP_HINTS.has(word) && !arg.startsWith('-'))
        words.add(word);
    }
  }
  return [...words].slice(0, 8);
}

/**
 * A line's template: the line with numbers, hex, paths, quoted names and durations masked, so
 * that `src/a.c:12: warning: unused variable 'x'` and `src/b.c:40: warning: unused variable 'y'`
 * are one template. Lines of one template are counted as one; a template seen once is news.
 * `keepQuoted` keeps quoted names (numbers in them masked): the finer key salient lines are
 * grouped by, so that `Argument of type 'number'` stands apart from 27 `Argument of type 'string'`.
 */
export function template(line: string, keepQuoted = false): string {
  return keepQuoted ? quotedTemplate(line) : plainTemplate(line);
}

const plainTemplate = remembered((line) => maskVariable(line, false));
const quotedTemplate = remembered((line) => maskVariable(line, true));

function maskVariable(line: string, keepQuoted: boolean): string {
  return line
    .trim()
    .replace(/'[^']*'|"[^"]*"|`[^`]*`|‘[^’]*’|“[^”]*”/g, (q) => (keepQuoted ? q.replace(/\d+/g, '#') : 'Q'))
    .replace(/[\w.\\@+-]*[/\\][\w./\\@+-]*/g, 'P')
    .replace(/[\w.+-]+\.[A-Za-z]\w{0,5}(?=[:(]\d)/g, 'P')
    .replace(/\b0x[0-9a-f]+\b/gi, 'H')
    .replace(/\b(?=[a-f]*\d)[0-9a-f]{7,}\b/gi, 'H')
    .replace(/(?<![A-Z\d])\d+(?:[.,:]\d+)*/g, '#')
    .replace(/\s+/g, ' ');
}

/**
 * A looser key for folding runs of similar lines: the indentation and the first two words with
 * numbers masked (`Setting up libfoo (1.2)` and `Setting up libbar (3.4)` are one run).
 */
export function shape(line: string, words: 1 | 2 = 2): string {
  return words === 1 ? shapeOne(line) : shapeTwo(line);
}

const shapeOne = remembered((line) => shapeOf(line, 1));
const shapeTwo = remembered((line) => shapeOf(line, 2));

function shapeOf(line: string, words: number): string {
  const indent = /^\s*/.exec(line)?.[0].length ?? 0;
  const parts = line.slice(indent).split(/\s+/, words);
  return `${indent}|${parts.map((w) => w.replace(/\d+/g, '#').replace(/[/\\].*/, 'P')).join('|')}`;
}
