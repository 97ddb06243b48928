/**
 * A secret wrapped over three lines or more (issue 20: a `ghp_` token or an `api_key=` value cut
 * at a terminal's width or by fold(1); split-secret.ts joins two lines only, so the pieces after
 * the second were printed). A wrap makes every line of the wrapped one as long as the width but
 * its last: the chain is a line as long as the width that ends with token characters, lines of
 * token characters alone as long as it, and a line that starts with token characters (or a
 * shorter line of them). The chain through a line is joined and masked as one line; the line
 * shows its part of what that masks.
 */
import { redactLine } from './redact.js';
import { mask } from './secret-kinds.js';
import { isTokenChar } from './split-secret.js';

/** Lines of a chain looked at on each side of a line, at most. */
export const CHAIN_LINES = 8;
/** A wrap this wide or wider is no terminal's: not followed. */
const MAX_WIDTH = 512;
const TOKEN4 = /^[A-Za-z0-9_+/=.-]{4}$/;
/** Whether a line ends with 4 token characters. */
const endsToken = (line: string) => line.length >= 4 && TOKEN4.test(line.slice(-4));
const ENDS_CHAR = /[A-Za-z0-9_+/=.-]$/;
const PLAIN_WORD = /^[A-Z]?[a-z]+$/;
// A token's known prefix, or a named value (`api_key=`), at the start of the run a line ends with;
// what names the value before that run (`Bearer `, `password: "`).
const TOKEN_START =
  /(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk-|sk_live_|AKIA|ASIA|AIza|hvs\.|pypi-|SG\.|dop_v1_|npm_|[A-Za-z_.-]*(?:key|token|secret|passw(?:or)?d|pwd)=)/iy;
// A space, a tab, `"`, `'`, `=` or `:`.
const isSeparator = (c: number) => c === 32 || c === 9 || c === 34 || c === 39 || c === 61 || c === 58;
const NAMED_WORDS = ['bearer', 'basic', 'key', 'token', 'secret', 'password', 'passwd', 'pwd'];
/** Lines before a chain read for what names its secret, at most. */
const CONTEXT_LINES = 3;
const STARTS_TOKEN = /^[A-Za-z0-9_+/=.-]+/;

/**
 * True when a line may be the first of a chain though it does not end open (see endsOpen): it
 * ends with a token's known prefix or a named value, cut short (`ghp_a`, `api_k`).
 */
export function mayOpenChain(line: string): boolean {
  let s = line.length;
  while (s > 0 && line.length - s < 64 && isTokenChar(line.charCodeAt(s - 1))) s--;
  if (s === line.length || line.length > MAX_WIDTH) return false;
  // A known prefix holds a mark or a capital (`ghp_`, `AKIA`, `sk-`, `key=`).
  let marked = false;
  for (let i = s; i < line.length && !marked; i++) {
    const c = line.charCodeAt(i);
    marked = c < 97 || c > 122;
  }
  TOKEN_START.lastIndex = s;
  if (marked && TOKEN_START.test(line)) return true;
  // What names a value is a word before it, then a space, `=`, `:` or a quote.
  let e = s;
  while (e > 0 && s - e < 4 && isSeparator(line.charCodeAt(e - 1))) e--;
  if (e === s) return false;
  for (const w of NAMED_WORDS) if (endsWithWord(line, e, w)) return true;
  return false;
}

/** Whether `line` has the small-letter word `w` (in any case) ending at `e`. */
function endsWithWord(line: string, e: number, w: string): boolean {
  if (e < w.length) return false;
  for (let k = 0; k < w.length; k++)
    if ((line.charCodeAt(e - w.length + k) | 32) !== w.charCodeAt(k)) return false;
  return true;
}

/** A line of token characters alone: a piece of a wrapped token. */
export function isPiece(line: string | undefined): line is string {
  if (line === undefined || line.length < 8 || line.length > MAX_WIDTH) return false;
  for (let i = 0; i < line.length; i++) if (!isTokenChar(line.charCodeAt(i))) return false;
  return true;
}

/**
 * `line` with its part of a secret wrapped over three lines or more masked; `before` are the
 * lines before it (the nearest last), `after` those after it (the nearest first), as stored.
 * Undefined when no chain through the line joins into a secret.
 */
export function maskWrapped(
  line: string,
  before: readonly string[],
  after: readonly string[],
): string | undefined {
  const prev = before.at(-1);
  const next = after[0];
  let width: number;
  let back: boolean;
  const fits = next !== undefined && next.length <= line.length;
  const lastLine = isPiece(prev) && STARTS_TOKEN.test(line);
  if (
    !(lastLine && line.length < (prev as string).length) &&
    line.length <= MAX_WIDTH &&
    endsToken(line) &&
    fits &&
    (isPiece(next) || (isPiece(line) && STARTS_TOKEN.test(next)))
  ) {
    // The chain's first line, or a piece of its middle.
    width = line.length;
    back = isPiece(line);
  } else if (lastLine && line.length <= (prev as string).length) {
    // Its last line.
    width = prev.length;
    back = true;
  } else return undefined;
  const lines = [line];
  let at = 0;
  let i = before.length - 1;
  for (; back && i >= 0 && (before[i] as string).length === width; i--) {
    const b = before[i] as string;
    if (!isPiece(b) && !ENDS_CHAR.test(b)) break;
    lines.unshift(b);
    at++;
    if (!isPiece(b)) {
      i--;
      break;
    }
  }
  // The lines before the chain as wide as it are the start of the same wrapped line: what names
  // the secret (`Authorization: Bearer`, `api_key=`) may be there.
  const context: string[] = [];
  for (; i >= 0 && context.length < CONTEXT_LINES && (before[i] as string).length === width; i--)
    context.unshift(before[i] as string);
  for (const a of line.length === width ? after : []) {
    if (isPiece(a) && a.length === width) {
      lines.push(a);
      continue;
    }
    if (STARTS_TOKEN.test(a)) lines.push(a);
    break;
  }
  if (lines.length < 3) return undefined;
  // A last line that starts with a plain word, after one as wide as the width, may not be part
  // of it (`done` after a token that filled its last line): the chain without it is tried first.
  const end = lines.length - 1;
  const word = STARTS_TOKEN.exec(lines[end] as string)?.[0] ?? '';
  if (end >= 3 && PLAIN_WORD.test(word) && (lines[end - 1] as string).length === width) {
    const shorter = maskPart(context.join(''), lines.slice(0, end), Math.min(at, end - 1));
    if (shorter !== undefined) return at === end ? line : shorter;
  }
  return maskPart(context.join(''), lines, at);
}

/**
 * Line `at` of `lines` (a chain, after `context`) with its part of what masking them joined
 * masks; undefined when that masks nothing.
 */
function maskPart(context: string, lines: string[], at: number): string | undefined {
  const last = lines.length - 1;
  const tail = lines[last] as string;
  const head = STARTS_TOKEN.exec(tail)?.[0] ?? '';
  const parts = [context, ...lines.slice(0, last), head];
  const joined = parts.join('');
  const masked = redactLine(joined);
  if (masked === joined) return undefined;
  let p = 0;
  while (p < joined.length && joined.charCodeAt(p) === masked.charCodeAt(p)) p++;
  let q = 0;
  while (
    q < joined.length - p &&
    joined.charCodeAt(joined.length - 1 - q) === masked.charCodeAt(masked.length - 1 - q)
  )
    q++;
  const from = parts.slice(0, at + 1).join('').length;
  const own = at === last ? head.length : (lines[at] as string).length;
  const [s, e] = [Math.max(p, from) - from, Math.min(joined.length - q, from + own) - from];
  const line = lines[at] as string;
  // Masking stopped before this line, or began after it: nothing of it is the secret.
  if (e <= s) return line;
  return `${line.slice(0, s)}${mask('split-secret')}${line.slice(e)}`;
}

/** The last CHAIN_LINES lines given in a row (a ring). */
export class RecentLines {
  private readonly ring: string[] = [];
  private next = 0;
  private count = 0;

  /** Starts a new row with `lines` (the nearest last), or one line, or none. */
  from(lines: readonly string[] | string | undefined): void {
    this.count = 0;
    if (typeof lines === 'string') this.push(lines);
    if (typeof lines !== 'object') return;
    for (let i = Math.max(0, lines.length - CHAIN_LINES); i < lines.length; i++)
      this.push(lines[i] as string);
  }

  push(line: string): void {
    this.ring[this.next] = line;
    this.next = (this.next + 1) % CHAIN_LINES;
    this.count = Math.min(this.count + 1, CHAIN_LINES);
  }

  last(): string | undefined {
    return this.count > 0 ? this.ring[(this.next + CHAIN_LINES - 1) % CHAIN_LINES] : undefined;
  }

  /** The lines held, the nearest last. */
  all(): string[] {
    const out: string[] = [];
    for (let k = this.count; k > 0; k--)
      out.push(this.ring[(this.next + CHAIN_LINES - k) % CHAIN_LINES] as string);
    return out;
  }
}
