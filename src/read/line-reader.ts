/**
 * Streaming access to a stored output in constant memory: forward in blocks of whole lines
 * (numbered), and backward to find where the last N lines start. Reads are synchronous into one
 * reused buffer; nothing holds more than a block and one line.
 */
import { readSync } from 'node:fs';
import { countNewlines } from './bytes.js';

/** A run of whole lines of the file. Valid until the reader's next `next()`. */
export interface Block {
  /** The block's bytes: `buf[0, buf.length)`. */
  buf: Buffer;
  /** Byte offset of `buf[0]` in the file. */
  offset: number;
  /** Number of the line that starts (or, when `continued`, goes on) at `buf[0]`. */
  line: number;
  /** Newlines in the block. */
  newlines: number;
  /** The first bytes go on with a line begun in the previous block (only for giant lines). */
  continued: boolean;
  /** The last line goes on in the next block: it was longer than the reader may hold. */
  cut: boolean;
}

export interface ReaderOptions {
  /** Byte offset to start at (the start of a line). */
  from?: number;
  /** Number of the line at `from`. */
  line?: number;
  /** Bytes read at a time (default 1 MiB). */
  chunk?: number;
  /** Longest line held whole (default 64 MiB); a longer one is handed out in pieces. */
  maxLine?: number;
}

const DEFAULT_CHUNK = 1 << 20;
const DEFAULT_MAX_LINE = 64 << 20;

/** Reads a file forward in blocks that end at a newline. */
export class BlockReader {
  private buf: Buffer;
  private held = 0;
  private used = 0;
  private pos: number;
  private line: number;
  private continued = false;
  private eof = false;
  private readonly maxLine: number;

  constructor(
    private readonly fd: number,
    options: ReaderOptions = {},
  ) {
    this.pos = options.from ?? 0;
    this.line = options.line ?? 1;
    this.maxLine = options.maxLine ?? DEFAULT_MAX_LINE;
    this.buf = Buffer.allocUnsafeSlow(Math.min(options.chunk ?? DEFAULT_CHUNK, this.maxLine));
  }

  /** The next block, or undefined at the end of the file. */
  next(): Block | undefined {
    if (this.used > 0) {
      this.buf.copy(this.buf, 0, this.used, this.held);
      this.held -= this.used;
      this.used = 0;
    }
    this.fill();
    if (this.held === 0) return undefined;
    let end = this.held;
    let cut = false;
    for (;;) {
      const nl = this.buf.lastIndexOf(10, this.held - 1);
      if (nl !== -1) {
        end = nl + 1;
        break;
      }
      if (this.eof) break;
      if (this.buf.length >= this.maxLine) {
        cut = true;
        break;
      }
      const bigger = Buffer.allocUnsafeSlow(Math.min(this.maxLine, this.buf.length * 2));
      this.buf.copy(bigger, 0, 0, this.held);
      this.buf = bigger;
      this.fill();
      end = this.held;
    }
    const buf = this.buf.subarray(0, end);
    const block: Block = {
      buf,
      offset: this.pos - this.held,
      line: this.line,
      newlines: countNewlines(buf),
      continued: this.continued,
      cut,
    };
    this.line += block.newlines;
    this.continued = cut;
    this.used = end;
    return block;
  }

  private fill(): void {
    while (!this.eof && this.held < this.buf.length) {
      const n = readSync(this.fd, this.buf, this.held, this.buf.length - this.held, this.pos);
      if (n === 0) this.eof = true;
      this.held += n;
      this.pos += n;
    }
  }
}

/** Number of the last line of a block (a block that ends mid-line holds one more line). */
export function lastLineOf(block: Block): number {
  const endsLine = block.buf.length > 0 && block.buf[block.buf.length - 1] === 10;
  return block.line + block.newlines - (endsLine ? 1 : 0);
}

/** End of the line that holds byte `pos`: the index of its newline, or the end of the buffer. */
export function lineEnd(buf: Buffer, pos: number): number {
  const end = buf.indexOf(10, pos);
  return end === -1 ? buf.length : end;
}

/** Newlines in the bytes `[from, to)` of a file. */
export function countNewlinesBetween(fd: number, from: number, to: number): number {
  const buf = Buffer.allocUnsafeSlow(Math.min(DEFAULT_CHUNK, Math.max(1, to - from)));
  let n = 0;
  for (let pos = from; pos < to; ) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, to - pos), pos);
    if (got === 0) break;
    n += countNewlines(buf, 0, got);
    pos += got;
  }
  return n;
}

/**
 * Where the last `n` lines of a file of `size` bytes start, reading backward from the end in
 * small pieces: the byte offset, and how many lines there are from it (fewer than `n` when the
 * file is shorter).
 */
export function lastLinesStart(fd: number, size: number, n: number): { offset: number; lines: number } {
  const piece = Buffer.allocUnsafe(65536);
  let found = 0;
  let pos = size;
  while (pos > 0) {
    const from = Math.max(0, pos - piece.length);
    const length = readSync(fd, piece, 0, pos - from, from);
    for (let i = length - 1; i >= 0; ) {
      const k = piece.lastIndexOf(10, i);
      if (k === -1) break;
      // The last line's own newline does not start another line.
      if (from + k !== size - 1 && ++found === n) return { offset: from + k + 1, lines: n };
      i = k - 1;
    }
    pos = from;
  }
  return { offset: 0, lines: size === 0 ? 0 : found + 1 };
}

/**
 * The end of the line that goes on at byte `pos` (the offset of its newline, or the file's size):
 * for a line longer than the reader holds, whose end is past the block it starts in.
 */
export function lineEndFrom(fd: number, pos: number): number {
  const buf = Buffer.allocUnsafeSlow(DEFAULT_CHUNK);
  for (;;) {
    const got = readSync(fd, buf, 0, buf.length, pos);
    if (got === 0) return pos;
    const nl = buf.indexOf(10);
    if (nl !== -1 && nl < got) return pos + nl;
    pos += got;
  }
}
