/**
 * Reading lines back around matches whose byte offset and line number the scan found: a
 * bounded region around each match is read, split at newlines and numbered from the match, so a
 * line number never drifts and a match in a very long line comes back with the part of the line
 * around it (and how many bytes of the line were left out on each side).
 */
import { closeSync, readSync } from 'node:fs';
import { openFileForRead } from '../store/safe-open.js';
import { BEFORE_BYTES, lineAfter, lineBefore, NEIGHBOUR_BYTES } from '../summary/neighbours.js';

/** Bytes read on each side of a match. */
const AROUND = 8 * 1024;
/** How far back or forward the ends of a cut line are looked for (to say how much was cut). */
const FIND_END = 8 << 20;

export interface Anchor {
  offset: number;
  line: number;
}

/** One line, or the part of it read. */
export interface Piece {
  /** 1-based line number. */
  n: number;
  text: string;
  /** Byte offset in the output where `text` starts. */
  start: number;
  /** Bytes of the line before and after `text` (0 when whole); -1 when more than FIND_END. */
  before: number;
  after: number;
}

function read(fd: number, from: number, to: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Bytes from `offset` back to the start of its line (-1 when farther than FIND_END). */
function backToLineStart(fd: number, offset: number): number {
  const step = 64 * 1024;
  for (let end = offset; end > 0 && offset - end < FIND_END; ) {
    const from = Math.max(0, end - step);
    const nl = read(fd, from, end).lastIndexOf(10);
    if (nl !== -1) return offset - (from + nl + 1);
    end = from;
  }
  return offset <= FIND_END ? offset : -1;
}

/** Bytes from `offset` to the end of its line (-1 when farther than FIND_END). */
function onToLineEnd(fd: number, offset: number): number {
  const step = 64 * 1024;
  for (let from = offset; from - offset < FIND_END; from += step) {
    const buf = read(fd, from, from + step);
    const nl = buf.indexOf(10);
    if (nl !== -1) return from + nl - offset;
    if (buf.length < step) return from + buf.length - offset;
  }
  return -1;
}

/**
 * The lines `first` to `last` (1-based) around `anchors` (matches inside that range), as far as
 * `around` bytes (AROUND unless told) on each side of a match reach: pieces sorted by line, each
 * line once.
 */
export function readAround(
  fd: number,
  anchors: Anchor[],
  first: number,
  last: number,
  exactEnds = false,
  around = AROUND,
): Piece[] {
  {
    const sorted = [...anchors].sort((a, b) => a.offset - b.offset);
    const pieces = new Map<number, Piece>();
    let i = 0;
    while (i < sorted.length) {
      // Merge anchors whose regions meet.
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1]!.offset - sorted[j]!.offset < 2 * around) j++;
      const anchor = sorted[i]!;
      const from = Math.max(0, anchor.offset - around);
      const to = sorted[j]!.offset + around;
      // The byte before `from` (a newline or not: is the first line cut?) in the same read.
      const whole = from > 0 ? read(fd, from - 1, to) : undefined;
      const edge = whole ? whole[0] : 10;
      const buf = whole ? whole.subarray(1) : read(fd, from, to);
      const atEnd = buf.length < to - from;
      const local = anchor.offset - from;
      // Line of the first byte read: the anchor's, less the newlines between.
      let n = anchor.line;
      for (let k = buf.indexOf(10); k !== -1 && k < local; k = buf.indexOf(10, k + 1)) n--;
      let start = 0;
      let cutStart = edge !== 10;
      while (start <= buf.length) {
        let nl = buf.indexOf(10, start);
        const cutEnd = nl === -1 && !atEnd;
        if (nl === -1) nl = buf.length;
        if (start === buf.length && start > 0) break;
        const known = pieces.get(n);
        if (known && !exactEnds && n >= first && n <= last) {
          // Another part of a long line (to rank: every part read counts, a space between).
          known.text += ` ${buf.toString('utf8', start, nl)}`;
        } else if (n >= first && n <= last && !known) {
          pieces.set(n, {
            n,
            text: buf.toString('utf8', start, nl),
            start: from + start,
            before: cutStart ? (exactEnds ? backToLineStart(fd, from + start) : -1) : 0,
            after: cutEnd ? (exactEnds ? onToLineEnd(fd, from + nl) : -1) : 0,
          });
        }
        cutStart = false;
        if (nl >= buf.length) break;
        n++;
        start = nl + 1;
      }
      i = j + 1;
    }
    return [...pieces.values()].sort((a, b) => a.n - b.n);
  }
}

/** Runs `f` with the output at `path` open for reading (no link followed). */
export function withFile<T>(path: string, f: (fd: number) => T): T {
  const fd = openFileForRead(path);
  try {
    return f(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The end of the line before `first` and the start of the line after `last` (pieces read whole
 * at that side), cleaned: the shield needs them for a secret cut over two lines.
 */
export function lineEdges(fd: number, first: Piece, last: Piece): { before?: string; after?: string } {
  const out: { before?: string; after?: string } = {};
  if (first.before === 0 && first.start > 0) {
    const buf = read(fd, Math.max(0, first.start - BEFORE_BYTES - 1), first.start);
    const text = lineBefore(buf, buf.length);
    if (text !== undefined) out.before = text;
  }
  if (last.after === 0) {
    // The decoded text is never shorter in UTF-8 than the bytes it came from.
    const buf = read(fd, last.start, last.start + Buffer.byteLength(last.text) + 1 + NEIGHBOUR_BYTES);
    const nl = buf.indexOf(10);
    const text = nl === -1 ? undefined : lineAfter(buf, nl);
    if (text !== undefined) out.after = text;
  }
  return out;
}
