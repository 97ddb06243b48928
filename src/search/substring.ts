/**
 * The fallback for a query word that no token equals or starts with: a streaming scan of the
 * indexed text for the word inside a longer token (`refused` in `ECONNREFUSED`), as grep would
 * find it. It reads each output 1 MiB at a time, looks for the word as written, in lower case,
 * in upper case and capitalised, checks every line found (cleaned) in a case-blind way, and
 * turns the lines into postings of the blocks that hold them, so they are ranked like the rest.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { cleanLine } from '../summary/clean.js';
import type { BlockTable, Header, Postings } from './index-file.js';

const CHUNK = 1 << 20;

/** The synthetic token under which a word found inside other tokens is ranked. */
export const substringToken = (word: string) => `~${word}`;

/** True when the cleaned line holds `word`, whatever the case. */
export function holds(line: string, word: string): boolean {
  return cleanLine(line).toLowerCase().includes(word);
}

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

/** Finds `word` (lowercase) inside the indexed regions of one output; undefined when nowhere. */
export function findInside(
  path: string,
  header: Header,
  table: BlockTable,
  word: string,
): Postings | undefined {
  const forms = [...new Set([word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)])].map((f) =>
    Buffer.from(f),
  );
  const counts = new Map<number, number>();
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (const region of header.regions) {
      let pos = region.start;
      let line = region.firstLine;
      while (pos < region.end) {
        const got = readSync(fd, buf, 0, Math.min(CHUNK, region.end - pos), pos);
        if (got === 0) break;
        const lastNl = buf.subarray(0, got).lastIndexOf(10);
        const view = buf.subarray(0, lastNl === -1 || pos + got >= region.end ? got : lastNl + 1);
        const starts = new Set<number>();
        for (const f of forms) {
          for (let i = view.indexOf(f); i !== -1; ) {
            starts.add(view.lastIndexOf(10, i) + 1);
            const nl = view.indexOf(10, i);
            i = nl === -1 ? -1 : view.indexOf(f, nl + 1);
          }
        }
        let counted = 0;
        for (const start of [...starts].sort((a, b) => a - b)) {
          for (let j = view.indexOf(10, counted); j !== -1 && j < start; j = view.indexOf(10, j + 1)) {
            line++;
            counted = j + 1;
          }
          const end = view.indexOf(10, start);
          if (!holds(view.toString('utf8', start, end === -1 ? view.length : end), word)) continue;
          const b = blockAt(table, header.blocks, line);
          counts.set(b, (counts.get(b) ?? 0) + 1);
        }
        for (let j = view.indexOf(10, counted); j !== -1; j = view.indexOf(10, j + 1)) line++;
        pos += view.length;
      }
    }
  } finally {
    closeSync(fd);
  }
  if (counts.size === 0) return undefined;
  const blocks = Uint32Array.from(counts.keys()).sort();
  return { term: substringToken(word), blocks, counts: Uint32Array.from(blocks, (b) => counts.get(b)!) };
}
