/**
 * Reading the lines of a hit back from the stored output, through the block table of its index
 * (byte offset of every block), so that no more than the lines shown is read.
 */
import { closeSync, readSync } from 'node:fs';
import { openFileForRead } from '../store/safe-open.js';
import type { BlockTable, Header } from './index-file.js';

/** Most bytes kept of one line (the display cuts it further). */
const LINE_BYTES = 16 * 1024;
/** Most bytes read for one hit. */
const READ_BYTES = 1 << 20;

/** The region (indexed byte range) holding 0-based line `line`, if any. */
export function regionOf(header: Header, line: number): Header['regions'][number] | undefined {
  return header.regions.find((r) => line >= r.firstLine && line < r.firstLine + r.lines);
}

/** Index of the last block whose first line is <= `line`. */
function blockAt(table: BlockTable, blocks: number, line: number): number {
  let lo = 0;
  let hi = blocks - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (table.line(mid) <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Lines `first` to `last` (0-based, inclusive, inside one region) of the output, each cut to
 * LINE_BYTES, without their `\n`. Fewer lines come back if the output is shorter.
 */
export function readLines(
  path: string,
  header: Header,
  table: BlockTable,
  first: number,
  last: number,
): string[] {
  if (header.blocks === 0) return [];
  const k = blockAt(table, header.blocks, first);
  let line = table.line(k);
  let pos = table.offset(k);
  const out: string[] = [];
  const fd = openFileForRead(path);
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    let partial: Buffer[] = [];
    let partialLen = 0;
    let read = 0;
    while (line <= last && read < READ_BYTES) {
      const got = readSync(fd, buf, 0, buf.length, pos);
      if (got === 0) break;
      read += got;
      let start = 0;
      while (start < got && line <= last) {
        const nl = buf.indexOf(10, start);
        const end = nl === -1 || nl >= got ? got : nl;
        if (partialLen < LINE_BYTES) {
          const piece = buf.subarray(start, Math.min(end, start + LINE_BYTES - partialLen));
          partial.push(Buffer.from(piece));
          partialLen += piece.length;
        }
        if (end === got) break;
        if (line >= first) out.push(Buffer.concat(partial).toString('utf8'));
        partial = [];
        partialLen = 0;
        line++;
        start = end + 1;
      }
      pos += got;
    }
    if (line <= last && line >= first && partialLen > 0) out.push(Buffer.concat(partial).toString('utf8'));
    return out;
  } finally {
    closeSync(fd);
  }
}
