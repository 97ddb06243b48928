/**
 * Lines too long to be held whole: a line's start and end are kept while it streams in, and the
 * first and last few such lines are kept for the summary, with the short lines after each.
 */

import { isAscii } from 'node:buffer';
import { cleanLine } from './clean.js';
import type { LongLine, NumberedLine } from './collected.js';
import { LastBytes } from './last-bytes.js';
import { type Salience, scoreLine } from './salience.js';
import { copyOf } from './sniff.js';

/** How many characters of a long line's start and of its end are kept. */
const LONG_EDGE = 2048;
const MAX_LONG_KEPT = 8;
/** How many lines after a long line are held, in how many bytes, each at most AFTER_LINE bytes. */
const AFTER_LINES = 12;
const AFTER_BYTES = 8192;
const AFTER_LINE = 2048;
const NL = 10;

/** A long line while it streams in: its first bytes kept, its last ones rolling, its size counted. */
export class HugeLine {
  private readonly start: Buffer;
  private readonly end = new LastBytes(LONG_EDGE * 4);
  /** Bytes of the line so far (its newline not included). */
  bytes = 0;
  private chars = 0;

  /** Begins the long line numbered `line` with its first bytes. */
  constructor(
    readonly line: number,
    first: Buffer,
  ) {
    this.start = copyOf(first.subarray(0, LONG_EDGE * 4));
    this.grow(first);
  }

  grow(part: Buffer): void {
    this.bytes += part.length;
    this.chars += countChars(part);
    this.end.push(part);
  }

  /** The line's cleaned start and end, and its length in characters. */
  finish(): LongLine {
    const start = cleanLine(decodeStart(this.start, LONG_EDGE));
    const end = cleanLine(decodeEnd(this.end.bytes, LONG_EDGE));
    return { line: this.line, start, end, chars: this.chars };
  }
}

/** The first and the last MAX_LONG_KEPT long lines. */
export class LongLines {
  private readonly first: LongLine[] = [];
  private last: LongLine[] = [];

  add(long: LongLine): void {
    if (this.first.length < MAX_LONG_KEPT) this.first.push(long);
    else {
      this.last.push(long);
      if (this.last.length > MAX_LONG_KEPT) this.last = this.last.slice(-MAX_LONG_KEPT);
    }
  }

  /** The kept long lines by line number. */
  byLine(): Map<number, LongLine> {
    const byLine = new Map<number, LongLine>();
    for (const l of [...this.first, ...this.last]) byLine.set(l.line, l);
    return byLine;
  }
}

/** Counts UTF-8 characters (bytes that do not continue a sequence); ASCII is checked natively. */
function countChars(buf: Uint8Array): number {
  if (isAscii(buf)) return buf.length;
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (((buf[i] as number) & 0xc0) !== 0x80) n++;
  return n;
}

/** Decodes the first `chars` characters of a buffer, not splitting a UTF-8 sequence. */
function decodeStart(buf: Buffer, chars: number): string {
  return Array.from(buf.toString('utf8').replace(/\uFFFD$/, ''))
    .slice(0, chars)
    .join('');
}

/** Decodes the last `chars` characters, skipping continuation bytes at the cut. */
function decodeEnd(buf: Buffer, chars: number): string {
  let i = 0;
  while (i < buf.length && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return Array.from(buf.subarray(i).toString('utf8')).slice(-chars).join('');
}

/**
 * Holds the short lines after a long line (see LongLine.after): told where each scanned piece of
 * whole lines starts, it reads the lines it wants there, so that what it holds does not depend
 * on how the output came in chunks. It stops after AFTER_LINES lines or AFTER_BYTES bytes, or at a
 * line longer than AFTER_LINE (a long line starts its own).
 */
export class AfterLong {
  private want: { long: LongLine; next: number; lines: number; bytes: number } | null = null;

  /** True while lines after a long line are wanted (tested before each call of `from`). */
  get waiting(): boolean {
    return this.want !== null;
  }

  /** A long line ended: the lines after it are wanted. */
  start(long: LongLine): void {
    this.want = { long, next: long.line + 1, lines: AFTER_LINES, bytes: AFTER_BYTES };
  }

  /** Whole lines start at `work[pos]`, the first numbered `line`: the wanted ones are held. */
  from(work: Buffer, pos: number, line: number): void {
    const want = this.want;
    if (!want || want.next !== line) return;
    let at = pos;
    let n = line;
    const held: NumberedLine[] = want.long.after ?? [];
    while (at < work.length && want.lines > 0) {
      const end = lineEnd(work, at);
      if (end - at > Math.min(AFTER_LINE, want.bytes)) {
        want.lines = 0;
        break;
      }
      held.push({ line: n, text: cleanLine(work.toString('utf8', at, end)) });
      want.lines--;
      want.bytes -= end - at + 1;
      at = end + 1;
      n++;
    }
    if (held.length > 0) want.long.after = held;
    want.next = n;
    if (want.lines <= 0) this.want = null;
  }
}

/**
 * What a long line is worth, and the edge it is read on: its start, or its end when that says
 * more (a line redrawn with carriage returns says at its end what it came to).
 */
export function salientEdge(long: LongLine, hints: readonly string[]): Salience & { text: string } {
  const [first, last] = [scoreLine(long.start, hints), scoreLine(long.end, hints)];
  return last.score > first.score ? { ...last, text: long.end } : { ...first, text: long.start };
}

/** The offset of the next newline at or after `from`, or the bytes' length. */
export function lineEnd(buf: Buffer, from: number): number {
  const nl = buf.indexOf(NL, from);
  return nl === -1 ? buf.length : nl;
}

/** Where each line of `buf` starts (a line ends at the next newline, or at the end). */
export function lineStarts(buf: Buffer): number[] {
  const starts: number[] = [];
  for (let at = 0; at < buf.length; at = lineEnd(buf, at) + 1) starts.push(at);
  return starts;
}
