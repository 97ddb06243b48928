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

/** Lines of a chain looked at on each side of a line, at most. */
export const CHAIN_LINES = 8;
/** A wrap this wide or wider is no terminal's: not followed. */
const MAX_WIDTH = 512;
const PIECE = /^[A-Za-z0-9_+/=.-]{8,}$/;
const ENDS_TOKEN = /[A-Za-z0-9_+/=.-]{4,}$/;
const ENDS_CHAR = /[A-Za-z0-9_+/=.-]$/;
const PLAIN_WORD = /^[A-Z]?[a-z]+$/;
const NAMED_END =
  /(?:^|[^A-Za-z0-9])(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|sk-|sk_live_|AKIA|ASIA|AIza|hvs\.|pypi-|SG\.|dop_v1_|npm_|(?:bearer|basic)\s+|[A-Za-z_]*(?:key|token|secret|passw(?:or)?d|pwd)["']?\s*[=:]\s*["']?)[A-Za-z0-9_+/=.-]*$/i;
/** Lines before a chain read for what names its secret, at most. */
const CONTEXT_LINES = 3;
const STARTS_TOKEN = /^[A-Za-z0-9_+/=.-]+/;

/**
 * True when a line may be the first of a chain though it does not end open (see endsOpen): it
 * ends with a token's known prefix or a named value, cut short (`ghp_a`, `api_k`).
 */
export const mayOpenChain = (line: string) => line.length <= MAX_WIDTH && NAMED_END.test(line);

/** A line of token characters alone: a piece of a wrapped token. */
export const isPiece = (line: string | undefined): line is string =>
  line !== undefined && line.length <= MAX_WIDTH && PIECE.test(line);

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
    ENDS_TOKEN.test(line) &&
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
