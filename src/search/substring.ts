/**
 * The fallback for a query word that no token equals or starts with: a streaming scan of the
 * indexed text for the word inside a longer token (`refused` in `ECONNREFUSED`), as grep would
 * find it. It reads each output 1 MiB at a time, looks for the word as written, in lower case,
 * in upper case and capitalised, checks every line found (cleaned) in a case-blind way, and
 * turns the lines into postings of the blocks that hold them, so they are ranked like the rest.
 */
import { closeSync, readSync } from 'node:fs';
import { openFileForRead } from '../store/safe-open.js';
import { cleanLine } from '../summary/clean.js';
import type { BlockTable, Header, Postings } from './index-file.js';

const CHUNK = 1 << 20;

/** The synthetic token under which a word found inside other tokens is ranked. */
export const substringToken = (word: string) => `~${word}`;

/** True when the cleaned line holds `word`, whatever the case. */
export function holds(line: string, word: string): boolean {
  return cleanLine(line).toLowerCase().includes(word);
}

/** Index of the last block that starts at or before byte `offset`. */
function blockAtOffset(table: BlockTable, blocks: number, offset: number): number {
  let lo = 0;
  let hi = blocks - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (table.offset(mid) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Finds each of `words` (lowercase) inside the indexed regions of one output, in one pass;
 * returns the postings of each word found. Words `mayContain` rules out are not looked for, and
 * an output none may contain is not read.
 */
export function findInside(
  path: string,
  header: Header,
  table: BlockTable,
  words: string[],
  mayContain: (word: string) => boolean = () => true,
): Map<string, Postings> {
  const found = new Map<string, Postings>();
  words = words.filter(mayContain);
  if (header.blocks === 0 || words.length === 0) return found;
  const needles = words.map((word) => ({
    word,
    forms: [...new Set([word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)])].map((f) =>
      Buffer.from(f),
    ),
    counts: new Map<number, number>(),
  }));
  let fd: number;
  try {
    fd = openFileForRead(path);
  } catch {
    return found;
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (const region of header.regions) {
      for (let pos = region.start; pos < region.end; ) {
        const got = readSync(fd, buf, 0, Math.min(CHUNK, region.end - pos), pos);
        if (got === 0) break;
        const lastNl = buf.subarray(0, got).lastIndexOf(10);
        const view = buf.subarray(0, lastNl === -1 || pos + got >= region.end ? got : lastNl + 1);
        for (const { word, forms, counts } of needles) {
          const starts = new Set<number>();
          for (const f of forms) {
            for (let i = view.indexOf(f); i !== -1; ) {
              const start = view.lastIndexOf(10, i) + 1;
              const nl = view.indexOf(10, i);
              if (
                !starts.has(start) &&
                holds(view.toString('utf8', start, nl === -1 ? view.length : nl), word)
              ) {
                starts.add(start);
                const b = blockAtOffset(table, header.blocks, pos + start);
                counts.set(b, (counts.get(b) ?? 0) + 1);
              }
              i = nl === -1 ? -1 : view.indexOf(f, nl + 1);
            }
          }
        }
        pos += view.length;
      }
    }
  } finally {
    closeSync(fd);
  }
  for (const { word, counts } of needles) {
    if (counts.size === 0) continue;
    const blocks = Uint32Array.from(counts.keys()).sort();
    found.set(word, {
      term: substringToken(word),
      blocks,
      counts: Uint32Array.from(blocks, (b) => counts.get(b)!),
    });
  }
  return found;
}
