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

// A line may leave a secret open when it ends (spaces aside) with a word that names one
// (`Bearer`, `password:`), with a run of token characters holding a digit or a capital after a
// small letter in its last 8 (a token cut at the width), with the start of a JWT (`eyJ…`, cut
// anywhere), or with the start of an AWS key id (`AKIA…` cut before its 20 characters). The end
// is taken apart by hand and the patterns run on its last word only: endsOpen runs on every
// line `read --lines grep:` tests.
const NAMES_SECRET = /(?:bearer|basic|token|passw(?:or)?d|passphrase|secret|key|authorization)$/i;
const OPEN_RUN = /\d|[a-z][A-Z]/;
const JWT_START = /(?:^|[^A-Za-z0-9_])eyJ[A-Za-z0-9_.-]*$/;
const AWS_START = /(?:^|[^A-Za-z0-9_])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{0,15}$/i;

// A word of small letters, capitalised or not.
const PLAIN_WORD = /^[A-Z]?[a-z]+$/;

const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
// [A-Za-z0-9_+/=.-]
export const isTokenChar = (c: number) =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 95 ||
  c === 43 ||
  c === 47 ||
  c === 61 ||
  c === 46 ||
  c === 45;

/** True when a line may end with the first part of a secret (a cheap test of its end). */
export function endsOpen(line: string): boolean {
  let end = line.length;
  while (end > 0 && isSpace(line.charCodeAt(end - 1))) end--;
  if (end === 0) return false;
  // `password:`, `"token" =`, `Bearer`: the word before a `:` or `=`, spaces and a quote.
  let k = end;
  const last = line.charCodeAt(k - 1);
  if (last === 58 || last === 61) {
    k--;
    while (k > 0 && isSpace(line.charCodeAt(k - 1))) k--;
  }
  if (k > 0 && (line[k - 1] === '"' || line[k - 1] === "'")) k--;
  // The last letter of one of those words, in either case (r c n d e t y).
  const end1 = line.charCodeAt(k - 1) | 32;
  const named =
    end1 === 114 ||
    end1 === 99 ||
    end1 === 110 ||
    end1 === 100 ||
    end1 === 101 ||
    end1 === 116 ||
    end1 === 121;
  if (named && NAMES_SECRET.test(line.slice(Math.max(0, k - 13), k))) return true;
  let s = end;
  while (s > 0 && end - s < 40 && isTokenChar(line.charCodeAt(s - 1))) s--;
  const run = line.slice(s, end);
  if (run.length >= 8 && OPEN_RUN.test(run.slice(-8))) return true;
  if (run.length < 3) return false;
  return (
    (run.includes('eyJ') && JWT_START.test(run)) ||
    ((run.includes('A') || run.includes('a')) && AWS_START.test(run))
  );
}

/** True when a line starts with a word that could complete a secret begun on the line before. */
export function mayContinue(line: string): boolean {
  return HEAD.test(line);
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

// A JWT cut at a line's end: from its header's start (`{"alg"`, `{"typ"`, `{"kid"`, `{"enc"` in
// base64url) to the end of the line, a dot or two within.
const JWT_OPEN = /(?<![A-Za-z0-9_-])eyJ(?:hbGci|0eXAi|raWQi|lbmMi)[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}$/;
// A line that is nothing but one run of base64url and dots: a piece of a wrapped JWT.
const JWT_PIECE = /^(\s*)[A-Za-z0-9_.-]+\s*$/;

/**
 * A JWT wrapped over several lines, followed line by line: `width` is the length of the line
 * it started on (the column it is wrapped at), 0 when no JWT is open. A JWT begun at a line's end
 * is masked from its start; each line after it that is one run of its characters is masked
 * whole and keeps it open while it is as long as the first; a line that only starts with one
 * has that start masked and closes it.
 */
export function followJwt(line: string, width: number): { text: string; width: number } {
  let text = line;
  let open = 0;
  if (width > 0) {
    const piece = JWT_PIECE.exec(line);
    const head = piece ? undefined : HEAD.exec(line);
    if (piece) {
      text = `${piece[1]}${mask('split-secret')}`;
      if (line.trimEnd().length >= width) open = width;
    } else if (head) text = `${head[1]}${mask('split-secret')}${line.slice(head[0].length)}`;
  }
  const end = text.trimEnd();
  if (open === 0 && end.includes('eyJ')) {
    const m = JWT_OPEN.exec(end.length > 8192 ? end.slice(-8192) : end);
    if (m) {
      const at = end.length - m[0].length;
      text = `${end.slice(0, at)}${mask('split-secret')}${text.slice(end.length)}`;
      open = end.length;
    }
  }
  return { text, width: open };
}

/** The width a JWT open at the end of `line` (the line before, as stored) leaves, or 0. */
export function jwtOpenWidth(line: string): number {
  const end = line.trimEnd();
  return end.includes('eyJ') && JWT_OPEN.test(end.length > 8192 ? end.slice(-8192) : end) ? end.length : 0;
}
