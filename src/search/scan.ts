/**
 * The streaming scan of what the index does not cover: the middle of an output larger than the
 * index's coverage. It runs when the indexes gave fewer hits than asked for, or always when the
 * search is scoped to one result (`--id`), reads the gap 1 MiB at a time (memory stays flat),
 * and finds query words as written, in lower case, in upper case and capitalised (a fast byte
 * search, not a full case fold); each line found is checked as the index would match it.
 */
import { closeSync, readSync } from 'node:fs';
import type { Entry } from '../store/registry.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';
import { openFileForRead } from '../store/safe-open.js';
import { cleanLine } from '../summary/clean.js';
import { BLOCK_LINES, CONTEXT } from './chunk.js';
import type { Header } from './index-file.js';
import type { Resolved } from './resolve.js';
import type { Hit } from './search.js';
import { holds } from './substring.js';
import { tokenizeLine } from './tokenize.js';

const CHUNK = 1 << 20;
/** Most matching lines kept per result. */
const MAX_LINES = 1000;

interface Found {
  line: number;
  offset: number;
  words: Set<string>;
}

function variants(word: string): Buffer[] {
  const forms = new Set([word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)]);
  return [...forms].map((f) => Buffer.from(f));
}

/** True when a line holds `word` as the index would find it: a token or its start, or (4+) inside one. */
function matchesWord(text: string, word: string): boolean {
  if (word.length >= 4) return holds(text, word);
  let hit = false;
  tokenizeLine(cleanLine(text), (t) => {
    if (!hit && (t === word || (word.length >= 3 && t.startsWith(word)))) hit = true;
  });
  return hit;
}

/** Scans one gap for `words`; returns matching lines, at most MAX_LINES. */
function scanGap(fd: number, gap: Header['gaps'][number], words: string[]): Found[] {
  const needles = words.map((w) => ({ word: w, forms: variants(w) }));
  const found: Found[] = [];
  const buf = Buffer.allocUnsafe(CHUNK);
  let pos = gap.start;
  let line = gap.firstLine;
  while (pos < gap.end && found.length < MAX_LINES) {
    const got = readSync(fd, buf, 0, Math.min(CHUNK, gap.end - pos), pos);
    if (got === 0) break;
    // Work on whole lines: stop after the last newline (unless one line fills the chunk).
    const lastNl = buf.subarray(0, got).lastIndexOf(10);
    const view = buf.subarray(0, lastNl === -1 || pos + got >= gap.end ? got : lastNl + 1);
    const hitsAt = new Map<number, Set<string>>();
    for (const { word, forms } of needles) {
      for (const f of forms) {
        let i = view.indexOf(f);
        while (i !== -1) {
          const start = view.lastIndexOf(10, i) + 1;
          hitsAt.set(start, (hitsAt.get(start) ?? new Set<string>()).add(word));
          const nl = view.indexOf(10, i);
          if (nl === -1) break;
          i = view.indexOf(f, nl + 1);
        }
      }
    }
    let counted = 0;
    for (const start of [...hitsAt.keys()].sort((x, y) => x - y)) {
      for (let j = view.indexOf(10, counted); j !== -1 && j < start; j = view.indexOf(10, j + 1)) {
        line++;
        counted = j + 1;
      }
      const end = view.indexOf(10, start);
      const text = view.toString('utf8', start, end === -1 ? view.length : end);
      const words = new Set([...hitsAt.get(start)!].filter((w) => matchesWord(text, w)));
      if (words.size > 0 && found.length < MAX_LINES) found.push({ line, offset: pos + start, words });
    }
    for (let j = view.indexOf(10, counted); j !== -1; j = view.indexOf(10, j + 1)) line++;
    pos += view.length;
  }
  return found;
}

/** The line at `offset` (0-based number `line`) with CONTEXT lines on each side. */
function around(fd: number, offset: number, line: number): Hit['lines'] {
  const before = Math.max(0, offset - 8 * 1024);
  const buf = Buffer.allocUnsafe(offset - before + 8 * 1024);
  const got = readSync(fd, buf, 0, buf.length, before);
  const head = buf
    .subarray(0, offset - before)
    .toString('utf8')
    .split('\n');
  head.pop();
  if (before > 0) head.shift();
  const rest = buf
    .subarray(offset - before, got)
    .toString('utf8')
    .split('\n');
  if (got < buf.length && rest[rest.length - 1] === '') rest.pop();
  const tail = rest.slice(0, CONTEXT + 1);
  const shown = [...head.slice(-CONTEXT), ...tail];
  const first = line - Math.min(CONTEXT, head.length);
  return shown.map((t, i) => ({ n: first + i + 1, text: cleanLine(t), match: first + i === line }));
}

/** Scans the unindexed parts of large outputs; see the module comment for when. */
export function scanGaps(
  dir: RunDir,
  items: { entry: Entry; header: Header }[],
  resolved: Resolved,
  opts: { limit: number; scanAll: boolean },
  indexedHits: number,
): { hits: Hit[]; found: Set<string> } {
  const hits: Hit[] = [];
  const foundWords = new Set<string>();
  if (!opts.scanAll && indexedHits >= opts.limit) return { hits, found: foundWords };
  const words = [...resolved.leaves.filter((l) => l.how !== 'fuzzy').map((l) => l.label), ...resolved.absent];
  const of = resolved.leaves.length + resolved.absent.length;
  for (const { entry, header } of items) {
    if (header.gaps.length === 0 || words.length === 0) continue;
    const fd = openFileForRead(resultPaths(dir, entry.meta.id).output);
    try {
      for (const gap of header.gaps) {
        const lines = scanGap(fd, gap, words);
        // One hit per run of nearby lines (within a window), best covered first.
        const groups: Found[][] = [];
        for (const f of lines) {
          const g = groups[groups.length - 1];
          if (g && f.line - g[0]!.line < 2 * BLOCK_LINES) g.push(f);
          else groups.push([f]);
        }
        const scored = groups.map((g) => ({ g, words: new Set(g.flatMap((f) => [...f.words])) }));
        scored.sort((a, b) => b.words.size - a.words.size || a.g[0]!.line - b.g[0]!.line);
        for (const { g, words: w } of scored) {
          for (const x of w) foundWords.add(x);
          const first = g[0]!;
          const lines = around(fd, first.offset, first.line);
          const matchLines = new Set(g.map((f) => f.line + 1));
          for (const l of lines) l.match = matchLines.has(l.n);
          hits.push({
            entry,
            score: w.size,
            found: w.size,
            of,
            lines,
            tokens: [...w],
            first: lines[0]?.n ?? first.line + 1,
            last: lines[lines.length - 1]?.n ?? first.line + 1,
            scanned: true,
          });
        }
      }
    } finally {
      closeSync(fd);
    }
  }
  hits.sort((a, b) => b.found - a.found || b.entry.startedMs - a.entry.startedMs);
  return { hits, found: foundWords };
}
