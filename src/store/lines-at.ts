/**
 * A few lines of a stored output by number: read forward in constant memory, stopping at the
 * last one asked for.
 */
import { readSync } from 'node:fs';

const CHUNK = 1 << 20;

/**
 * The bytes of the asked lines of the file open at `fd` (numbered from 1), without their
 * newline; a line longer than `max` bytes, or past the end, is absent.
 */
export function linesAt(fd: number, wanted: readonly number[], max: number): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  const asked = [...new Set(wanted)].filter((n) => n >= 1).sort((a, b) => a - b);
  const buf = Buffer.allocUnsafe(CHUNK);
  let line = 1;
  let k = 0;
  let pos = 0;
  /** The wanted line's bytes so far, while it is not longer than `max`. */
  let parts: Buffer[] | undefined = asked[0] === 1 ? [] : undefined;
  let size = 0;
  const take = (piece: Buffer) => {
    size += piece.length;
    if (parts && size <= max) parts.push(Buffer.from(piece));
    else parts = undefined;
  };
  while (k < asked.length) {
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) break;
    pos += n;
    let start = 0;
    while (k < asked.length) {
      const nl = buf.indexOf(10, start);
      const end = nl === -1 || nl >= n ? n : nl;
      if (line === asked[k]) take(buf.subarray(start, end));
      if (end === n) break;
      if (line === asked[k]) {
        if (parts) out.set(line, Buffer.concat(parts));
        k++;
      }
      line++;
      start = end + 1;
      parts = line === asked[k] ? [] : undefined;
      size = 0;
    }
  }
  // The last line, when it has no newline.
  if (k < asked.length && line === asked[k] && parts) out.set(line, Buffer.concat(parts));
  return out;
}
