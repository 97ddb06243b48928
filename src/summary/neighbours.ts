/**
 * The lines next to a candidate, kept only when a secret may be cut across them (a token wrapped
 * at a column, `Bearer` and the token on the next line: see split-secret.ts), so that the shield
 * can mask both halves of it in a summary line shown apart from its neighbours.
 */
import { endsOpen } from '../split-secret.js';
import { CHAIN_LINES, isPiece } from '../wrapped-token.js';
import { cleanLine } from './clean.js';
import type { Candidate } from './collected.js';

/** Bytes of a neighbour kept: the start of the line after (a token may be long)... */
export const NEIGHBOUR_BYTES = 4096;
/** ...and the end of the line before (split-secret.ts reads its last 96 characters). */
export const BEFORE_BYTES = 1024;

/**
 * Follows the candidates whose line may go on in the next one, for that line. The collector
 * tells it where every line starts (`next`), so what it keeps does not depend on how the output
 * came in chunks.
 */
export class Neighbours {
  private want: { c: Candidate; line: number } | null = null;

  /** `longest`: a line longer than this is no neighbour (it is held by its ends, see long-line.ts). */
  constructor(private readonly longest: number) {}

  /** True when a line after is wanted (tested before each call of `next` on the scanning path). */
  get waiting(): boolean {
    return this.want !== null;
  }

  /**
   * A new candidate: the end of the line before it is kept when a secret may begin there
   * (`before` gives the bytes before the candidate's line), and the line after is wanted when
   * one may begin at the candidate's end.
   */
  saw(c: Candidate, before: () => Buffer): void {
    const bytes = before();
    const text = lineBefore(bytes, bytes.length);
    if (text !== undefined && endsOpen(text)) c.before = text;
    this.want = endsOpen(c.text) ? { c, line: c.line + 1 } : null;
  }

  /** Line `line` starts at `work[s]` (when `s` is inside `work`): kept if it is the one wanted. */
  next(work: Buffer, s: number, line: number): void {
    const want = this.want;
    if (!want || s >= work.length || line < want.line) return;
    this.want = null;
    if (line > want.line) return;
    const nl = work.indexOf(10, s);
    if ((nl === -1 ? work.length : nl) - s <= this.longest) want.c.after = lineAt(work, s);
  }
}

/** The line starting at `buf[s]`, cleaned (its first NEIGHBOUR_BYTES). */
function lineAt(buf: Buffer, s: number): string {
  const nl = buf.indexOf(10, s);
  return cleanLine(buf.toString('utf8', s, Math.min(nl === -1 ? buf.length : nl, s + NEIGHBOUR_BYTES)));
}

/**
 * The lines after the one ending at `buf[end]` (its newline), cleaned, when `buf` holds the
 * first: up to CHAIN_LINES of them in NEIGHBOUR_BYTES, joined by newlines (a secret may be
 * wrapped over several lines: see wrapped-token.ts).
 */
export function lineAfter(buf: Buffer, end: number): string | undefined {
  if (end + 1 >= buf.length) return undefined;
  const stop = Math.min(buf.length, end + 1 + NEIGHBOUR_BYTES);
  const lines: string[] = [];
  for (let s = end + 1; s < stop && lines.length < CHAIN_LINES; ) {
    const nl = buf.indexOf(10, s);
    const e = nl === -1 || nl > stop ? stop : nl;
    lines.push(cleanLine(buf.toString('utf8', s, e)));
    s = e + 1;
  }
  return lines.join('\n');
}

/**
 * The end of the line before the one starting at `buf[start]`, cleaned, when `buf` holds it; and
 * the lines before that, up to CHAIN_LINES in BEFORE_BYTES joined by newlines (the nearest last),
 * where a secret wrapped over several lines may reach back: the line before is token characters
 * alone (see wrapped-token.ts).
 */
export function lineBefore(buf: Buffer, start: number): string | undefined {
  if (start < 1) return undefined;
  const end = start - 1; // its newline
  const from = Math.max(0, end - BEFORE_BYTES);
  const nl = buf.subarray(from, end).lastIndexOf(10);
  const s = nl === -1 ? from : from + nl + 1;
  const nearest = cleanLine(buf.toString('utf8', s, end));
  if (nl === -1 || !isPiece(nearest)) return nearest;
  const lines = buf
    .toString('utf8', from, s - 1)
    .split('\n')
    .slice(1 - CHAIN_LINES);
  return [...lines.map(cleanLine), nearest].join('\n');
}
