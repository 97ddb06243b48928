/**
 * The lines next to a line of a stored output, read from the file where the block in hand ends
 * there (issue 20: a secret cut over the two lines a block of `read` ended and started with was
 * printed; see split-secret.ts). Only the end of the line before and the start of the line after
 * are read, as the summary keeps them (neighbours.ts).
 */
import { readSync } from 'node:fs';
import { BEFORE_BYTES, lineAfter, lineBefore, NEIGHBOUR_BYTES } from '../summary/neighbours.js';

/** The end of the line before the line starting at byte `at` of the file, cleaned. */
export function fileLineBefore(fd: number, at: number): string | undefined {
  if (at <= 0) return undefined;
  const from = Math.max(0, at - BEFORE_BYTES - 1);
  const buf = Buffer.allocUnsafe(at - from);
  const got = readSync(fd, buf, 0, buf.length, from);
  return got === buf.length ? lineBefore(buf, buf.length) : undefined;
}

/** The start of the line after the newline at byte `at` of the file, cleaned. */
export function fileLineAfter(fd: number, at: number): string | undefined {
  const buf = Buffer.allocUnsafe(NEIGHBOUR_BYTES + 1);
  const got = readSync(fd, buf, 0, buf.length, at);
  return got > 0 && buf[0] === 10 ? lineAfter(buf.subarray(0, got), 0) : undefined;
}
