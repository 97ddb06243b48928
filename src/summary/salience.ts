/**
 * Salience: how much a single cleaned output line is worth showing to an agent when it sits in
 * the elided middle of a long output. Pure and table-tested.
 */

/** What kind of line it is, most important first. */
export type LineKind = 'error' | 'count' | 'warning' | 'hint' | 'plain';

export interface Salience {
  kind: LineKind;
  score: number;
}

/**
 * A cheap first pass run over whole chunks, lower-cased and decoded as latin1 (so byte offsets
 * equal string offsets): only lines containing one of these are scored. Every pattern below that
 * can make a line salient must be reachable through one of them. Each is a regex source that
 * starts with a literal lower-case letter, so that they can be grouped by first letter (a
 * factored alternation runs several times faster than a flat one).
 */
export const PREFILTER_WORDS = [
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
];

/** Symbols that mark failures, as their UTF-8 bytes read as latin1 and lower-cased: ✖ ✗ ✘ ×. */
const PREFILTER_SYMBOLS = [
  '\\u00e2\\u009c[\\u0096\\u0097\\u0098]',
  '\\u00e3\\u0097',
  '\\be\\d{3,5}\\b',
  // PEM private-key markers, so that a key's lines are never shown (see KEY_MARKER).
  '-----(?:begin|end) [a-z0-9 ]*private key',
];

/**
 * Short strings that every match of the prefilter contains (as lower-cased latin1), for the
 * SIMD filter in fingerprint-filter.ts: each is a list of positions, each position the characters
 * allowed there. For the words it is their literal start (up to 4 characters); the symbols are
 * listed by hand, in the order of PREFILTER_SYMBOLS, and must be kept in step with them.
 */
const DIGITS = '0123456789';
const SYMBOL_FINGERPRINTS: readonly (readonly string[])[] = [
  ['\u00e2', '\u009c', '\u0096\u0097\u0098'],
  ['\u00e3', '\u0097'],
  ['e', DIGITS, DIGITS, DIGITS],
  [...'-beg'],
  [...'-end'],
];

/** The literal start of a regex source, up to `max` characters ('tests?[: ]' → 'tes'). */
function literalStart(source: string, max: number): string {
  let out = '';
  for (const c of source) {
    if ('?*{'.includes(c)) return out.slice(0, -1).slice(0, max);
    if ('\\[](){}+|.^$'.includes(c)) break;
    out += c;
  }
  return out.slice(0, max);
}

/** Fingerprints of `buildPrefilter(extra)`: every line it matches contains one of them. */
export function prefilterFingerprints(extra: readonly string[] = []): string[][] {
  return [
    ...PREFILTER_WORDS.map((w) => [...literalStart(w, 4)]),
    ...extra.map((w) => [...w.toLowerCase().slice(0, 4)]),
    ...SYMBOL_FINGERPRINTS.map((f) => [...f]),
  ];
}

/** A PEM private-key BEGIN or END marker. */
export const KEY_MARKER = /-----(BEGIN|END) [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;

const escapeRe = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Builds the prefilter for lower-cased latin1 text; `extra` are literal words (command hints). */
export function buildPrefilter(extra: readonly string[] = []): RegExp {
  const groups = new Map<string, string[]>();
  const loose: string[] = [];
  for (const word of [...PREFILTER_WORDS, ...extra.map((w) => escapeRe(w.toLowerCase()))]) {
    const first = word[0] as string;
    if (!/[a-z0-9]/.test(first)) {
      loose.push(word);
      continue;
    }
    groups.set(first, [...(groups.get(first) ?? []), word.slice(1)]);
  }
  const parts = [...groups].map(([first, rests]) =>
    rests.length === 1 ? `${first}${rests[0]}` : `${first}(?:${rests.join('|')})`,
  );
  return new RegExp([...parts, ...loose, ...PREFILTER_SYMBOLS].join('|'), 'g');
}

const STRONG_ERROR_START =
  /^\s*(?:\[(?:ERROR|FATAL|FAIL(?:ED)?|CRITICAL|PANIC|EMERG|ALERT)\]|(?:ERROR|FATAL|CRITICAL|PANIC)\b[:\s]|(?:error|fatal error|fatal|panic)(?:\[[\w-]+\])?:|(?:E|F)\s{2,}\S|FAIL(?:ED)?\b|npm (?:ERR!|error)|✖|✗|×|Error:|[A-Z][A-Za-z]*(?:Error|Exception)\b(?:\s*\[[\w-]+\])?(?::|$)|not ok\b|Traceback \(most recent call last\)|thread '.*' panicked)/;
const LOCATED_ERROR =
  /(?:[\w./\\-]+\.\w+(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\))\s*[:-]?\s*(?:error|fatal error|fatal)\b|\berror (?:TS|CS|C|E)\d+\b|^\s*\d+:\d+\s+error\b)/i;
// Not after `-`, `/` or `.`: compiler flags (-Wfatal-errors, -Werror) and file names (errors.c).
const ERROR_WORD =
  /(?<![-/.])\b(?:error|errors|fatal|panic(?:ked)?|exception|traceback|failed|failure|failures|fail|assertion|assert(?:ion)?error|segmentation fault|core dumped|undefined reference|unresolved|cannot|can't|could ?n[o']t|unable to|no such file|not found|permission denied|refused|aborted|killed|timed out|timeout|invalid|missing|incomplete|violation|definitely lost|leak)\b|✖|✗/i;
const WARNING_START = /^\s*(?:\[(?:WARN|WARNING)\]|WARN(?:ING)?\b[:\s]|warning(?:\[[\w-]+\])?:|npm warn)/i;
const WARNING_WORD = /(?<![-/.])\bwarn(?:ing|ings)?\b|\bdeprecated\b/i;
const COUNT_LINE =
  /(?<![\d:.,]\s*)\b\d[\d,]*\s+(?:errors?|warnings?|failed|failures?|passed|passing|pending|skipped|tests?|problems?|succeeded|specs?|examples?|suites?|checks?)\b|(?<![./\w-])(?:errors?|warnings?|failures?|failed|passed|tests?)\s*[:=]\s*\d|\bBUILD (?:SUCCESS|FAILURE|FAILED|SUCCESSFUL)\b|\bERROR SUMMARY\b|\b(?:definitely|indirectly|possibly) lost:|\bTests?:?\s+\d/i;
const FAILING_COUNT =
  /[1-9][\d,]*\s+(?:errors?|failed|failures?|problems?)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*[1-9]|\bBUILD FAIL|\bTests?:?\s+[1-9]\d* failed/i;
const ZERO_COUNT =
  /(?:^|[^\d,])0\s+(?:errors?|failed|failures?|problems?)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*0\b|\bno (?:errors?|failures?|problems?)\b/i;
const NOISE_START = /^\s*(?:\[(?:DEBUG|TRACE|VERBOSE)\]|DEBUG\b|TRACE\b|\d+\s+DEBUG\b)/;
const LOCATION =
  /(?:[\w./\\@-]+\.[A-Za-z]\w{0,5}(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\)|"?, line \d+)|-->\s*\S+:\d+|\bat\s+\S+\s+\(?[\w./\\-]+:\d+)/;

/** Whether a line looks like a source location (`file.c:12:3`, `--> src/x.rs:4:9`, `at f (x.js:1)`). */
export function isLocation(line: string): boolean {
  return LOCATION.test(line);
}

/**
 * Scores one cleaned line. `hints` are lower-cased words from the command line; a line naming
 * one of them is worth showing even when it is not an error.
 */
export function scoreLine(line: string, hints: readonly string[] = []): Salience {
  if (line.length === 0) return { kind: 'plain', score: 0 };
  let kind: LineKind = 'plain';
  let score = 0;
  const strong = STRONG_ERROR_START.test(line) || LOCATED_ERROR.test(line);
  if (strong) {
    kind = 'error';
    score = 12;
  } else if (WARNING_START.test(line)) {
    kind = 'warning';
    score = 4;
  } else if (ERROR_WORD.test(line)) {
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
    score = Math.max(score, failing ? 13 : zero ? 5 : 9);
  }
  if (hints.length > 0) {
    const lower = line.toLowerCase();
    if (hints.some((h) => lower.includes(h))) {
      if (kind === 'plain') kind = 'hint';
      score += 3;
    }
  }
  if (score > 0 && NOISE_START.test(line)) score = Math.max(1, score - 8);
  return { kind, score };
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
 * The key under which near-identical lines are counted as one: locations, numbers, hex and
 * durations are normalised away, quoted names are kept.
 */
export function dedupeKey(line: string): string {
  return line
    .trim()
    .replace(/[\w./\\@-]*[/\\][\w./\\@-]*/g, '<path>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<hex>')
    .replace(/\b[0-9a-f]{7,}\b/gi, '<hex>')
    .replace(/\d+(?:[.,:]\d+)*/g, '#')
    .replace(/\s+/g, ' ');
}
