/**
 * Outputs made of very long lines are scanned in JS (scan.ts's scanFile), not by the engine: a
 * line-oriented engine holds a whole line in memory (ripgrep grows its buffer to the longest
 * line: a 1 GB line took 1 GB), where the JS scan reads 1 MiB at a time whatever the lines.
 * Decided from the result's metadata (bytes and lines, known once it is complete).
 */
import type { Entry } from '../store/registry.js';

/** Average line length from which an output is scanned in JS: the JS scan's chunk. */
export const LONG_LINES = 1 << 20;

/** True when `entry`'s lines are LONG_LINES bytes long on average. */
export function longLined(entry: Entry): boolean {
  const { bytes, storedBytes, lines } = entry.meta;
  const size = storedBytes ?? bytes;
  return size !== undefined && lines !== undefined && lines > 0 && size / lines >= LONG_LINES;
}
