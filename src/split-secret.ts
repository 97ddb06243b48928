/**
 * A secret cut over two lines: `Authorization: Bearer` and the token on the next line, a JWT or
 * an AWS key wrapped at the terminal's width, a YAML `password:` with its value on the next line.
 * Each line alone holds nothing to mask; the end of one with the start of the next does. Both
 * halves are masked: the second given the line before it, the first given the line after it.
 */
import { redactLine } from './redact.js';
import { mask } from './secret-kinds.js';

// The start of a line: its first word of token characters, after indentation.
const HEAD = /^(\s*)([A-Za-z0-9_+/=.~-]{4,8192})/;
// The end of a line: at most 96 characters, back to a space where there is one.
const TAIL = /\S[^\n]{0,95}$/;

// A line that may leave a secret open: it ends with a word that names one (`Bearer`,
// `password:`), with a run of token characters holding a digit or a capital after a small
// letter (a token cut at the width), with the start of a JWT (`eyJ…`, cut anywhere), or with the
// start of an AWS key id (`AKIA…` cut before its 20 characters, digits or not).
const ENDS_OPEN =
  /(?:bearer|basic|token|passw(?:or)?d|passphrase|secret|key|authorization)["']?\s*[:=]?\s*$|\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{0,15}\s*$/i;
// Case matters here: a capital after a small letter is not a plain word's end.
const ENDS_OPEN_RUN =
  /(?=[A-Za-z0-9_+/=.-]{0,7}(?:\d|[a-z][A-Z]))[A-Za-z0-9_+/=.-]{8}\s*$|\beyJ[A-Za-z0-9_.-]*\s*$/;

// A word of small letters, capitalised or not.
const PLAIN_WORD = /^[A-Z]?[a-z]+$/;

/** True when a line may end with the first part of a secret (a cheap test of its end). */
export function endsOpen(line: string): boolean {
  // Only the end of the line is looked at (a regex ending in $ would try every position).
  const end = line.length > 40 ? line.slice(-40) : line;
  return ENDS_OPEN.test(end) || ENDS_OPEN_RUN.test(end);
}

/** A secret found across the end of one line and the start of the next. */
interface Split {
  /** The next line's first word, with its indentation (`head[0]`). */
  head: RegExpExecArray;
  /** The end of the first line that was joined (its trailing spaces dropped). */
  tail: string;
  /** Where the secret starts in `tail` (`tail.length` or more: on the next line). */
  start: number;
}

/** The secret `before` and `line` hold together when joined, if any (see maskContinuation). */
function splitOf(before: string, line: string): Split | undefined {
  if (!endsOpen(before)) return undefined;
  const head = HEAD.exec(line);
  const tail = TAIL.exec(before.trimEnd())?.[0];
  if (!head || !tail) return undefined;
  const word = head[2] as string;
  // Masked on its own already: nothing carried over.
  if (redactLine(word) !== word) return undefined;
  // The word is part of a secret when masking the two lines joined eats into it. Joined without
  // a space only when the word could be the rest of a token, not a plain word (`MYTOKEN1` then
  // `type …` is no `MYTOKEN1type`).
  const joins = PLAIN_WORD.test(word) ? [`${tail} ${word}`] : [`${tail} ${word}`, `${tail}${word}`];
  for (const joined of joins) {
    const masked = redactLine(joined);
    if (!masked.endsWith(word)) return { head, tail, start: commonPrefix(joined, masked) };
  }
  return undefined;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * `line` with its first word masked when that word completes a secret begun at the end of
 * `before` (the line just before it, as stored): joined with a space (a header, a YAML key) or
 * without one (a wrapped token).
 */
export function maskContinuation(before: string, line: string): string {
  const split = splitOf(before, line);
  if (!split) return line;
  return `${split.head[1]}${mask('split-secret')}${line.slice(split.head[0].length)}`;
}

/**
 * `line` with its end masked when it is the first part of a secret that `after` (the line just
 * after it, as stored) completes: a wrapped JWT, token or key id. A line that only names the
 * secret (`Authorization: Bearer`, `password:`) is left as it is.
 */
export function maskOpening(line: string, after: string): string {
  const split = splitOf(line, after);
  if (!split || split.start >= split.tail.length) return line;
  const end = line.trimEnd().length;
  const from = end - (split.tail.length - split.start);
  return `${line.slice(0, from)}${mask('split-secret')}${line.slice(end)}`;
}
