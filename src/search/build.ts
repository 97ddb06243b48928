/**
 * Builds the search index of one stored output: every line cleaned (cleanLine) and tokenized,
 * grouped in blocks of BLOCK_LINES lines, with the postings (block, count) of every token.
 *
 * Very large outputs are indexed in part, so that memory and time stay bounded: the first
 * `headBytes` and the last `tailBytes` (cut at line boundaries); the middle is only counted
 * (for line numbers) and recorded as a gap, which search covers with a streaming scan.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openFileForRead } from '../store/safe-open.js';
import { cleanLine } from '../summary/clean.js';
import { BLOCK_LINES, forEachLine } from './chunk.js';
import { addTrigrams, trigramFilterBytes } from './filters.js';
import { encodeIndex, type IndexData } from './index-encode.js';
import type { Gap, Region } from './index-file.js';
import { tokenizeLine } from './tokenize.js';

/** How much of one output is indexed. */
export interface Coverage {
  headBytes: number;
  tailBytes: number;
}

/** Default: up to 16 MiB of each output is indexed, its first and last 8 MiB. */
export const DEFAULT_COVERAGE: Coverage = { headBytes: 8 << 20, tailBytes: 8 << 20 };

/** Grows Uint32 columns of (term, block, count) as postings are found. */
class Triples {
  term = new Uint32Array(1 << 16);
  block = new Uint32Array(1 << 16);
  count = new Uint32Array(1 << 16);
  length = 0;
  push(term: number, block: number, count: number): void {
    if (this.length === this.term.length) {
      for (const key of ['term', 'block', 'count'] as const) {
        const bigger = new Uint32Array(this.length * 2);
        bigger.set(this[key]);
        this[key] = bigger;
      }
    }
    this.term[this.length] = term;
    this.block[this.length] = block;
    this.count[this.length] = count;
    this.length++;
  }
}

/** Collects blocks and postings from lines, region after region. */
class Builder {
  readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  readonly triples = new Triples();
  readonly blockOffset: number[] = [];
  readonly blockLine: number[] = [];
  readonly blockTokens: number[] = [];
  readonly blockLines: number[] = [];
  /** Per token id: the last block it was seen in, and where its count for that block is. */
  private lastBlock = new Int32Array(1 << 14).fill(-1);
  private slot = new Uint32Array(1 << 14);
  private block = -1;
  private tokens = 0;
  private lines = 0;
  totalTokens = 0;

  constructor(readonly grams: Uint8Array) {}

  private readonly onCompound = (lower: string) => addTrigrams(this.grams, lower);

  private readonly onToken = (token: string) => {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(token, id);
      this.terms.push(token);
      if (id === this.lastBlock.length) this.grow();
    }
    this.tokens++;
    if (this.lastBlock[id] === this.block) {
      this.triples.count[this.slot[id]!]!++;
    } else {
      this.lastBlock[id] = this.block;
      this.slot[id] = this.triples.length;
      this.triples.push(id, this.block, 1);
    }
  };

  private grow(): void {
    const last = new Int32Array(this.lastBlock.length * 2).fill(-1);
    last.set(this.lastBlock);
    this.lastBlock = last;
    const slot = new Uint32Array(this.slot.length * 2);
    slot.set(this.slot);
    this.slot = slot;
  }

  line(text: string, lineNo: number, byteOffset: number): void {
    if (this.lines === 0) {
      this.block = this.blockLine.length;
      this.blockOffset.push(byteOffset);
      this.blockLine.push(lineNo);
    }
    tokenizeLine(cleanLine(text), this.onToken, this.onCompound);
    if (++this.lines === BLOCK_LINES) this.endBlock();
  }

  endBlock(): void {
    if (this.lines === 0) return;
    this.blockTokens.push(this.tokens);
    this.blockLines.push(this.lines);
    this.totalTokens += this.tokens;
    this.tokens = 0;
    this.lines = 0;
  }
}

function readRange(fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(end - start);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

/** Counts the newlines between two offsets, reading 1 MiB at a time. */
function countLines(fd: number, start: number, end: number): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let n = 0;
  for (let pos = start; pos < end; ) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (got === 0) break;
    for (let i = buf.indexOf(10, 0); i !== -1 && i < got; i = buf.indexOf(10, i + 1)) n++;
    pos += got;
  }
  return n;
}

/** Indexes the lines of one region of the file; returns the number of lines it held. */
function indexRegion(b: Builder, buf: Buffer, start: number, firstLine: number): number {
  let lineNo = firstLine;
  forEachLine(buf, 0, buf.length, (s, e) => {
    b.line(buf.toString('utf8', s, e), lineNo++, start + s);
  });
  b.endBlock();
  return lineNo - firstLine;
}

/** Source facts an index is valid for. */
export interface SourceStamp {
  size: number;
  mtimeMs: number;
}

/** Reads and indexes the output at `path`; returns the encoded index and the stamp it is for. */
export function buildIndex(
  path: string,
  coverage: Coverage = DEFAULT_COVERAGE,
): { data: Buffer; stamp: SourceStamp } {
  const fd = openFileForRead(path);
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const b = new Builder(
      new Uint8Array(trigramFilterBytes(Math.min(size, coverage.headBytes + coverage.tailBytes))),
    );
    const regions: Region[] = [];
    const gaps: Gap[] = [];
    if (size <= coverage.headBytes + coverage.tailBytes) {
      const lines = indexRegion(b, readRange(fd, 0, size), 0, 0);
      regions.push({ start: 0, end: size, firstLine: 0, lines });
    } else {
      let head = readRange(fd, 0, coverage.headBytes);
      const lastNl = head.lastIndexOf(10);
      if (lastNl !== -1) head = head.subarray(0, lastNl + 1);
      const headLines = indexRegion(b, head, 0, 0);
      regions.push({ start: 0, end: head.length, firstLine: 0, lines: headLines });
      let tailStart = size - coverage.tailBytes;
      let tail = readRange(fd, tailStart, size);
      const firstNl = tail.indexOf(10);
      if (firstNl !== -1 && firstNl < tail.length - 1) {
        tail = tail.subarray(firstNl + 1);
        tailStart += firstNl + 1;
      }
      const gapLines = countLines(fd, head.length, tailStart);
      gaps.push({ start: head.length, end: tailStart, firstLine: headLines });
      const tailLines = indexRegion(b, tail, tailStart, headLines + gapLines);
      regions.push({ start: tailStart, end: size, firstLine: headLines + gapLines, lines: tailLines });
    }
    const data: IndexData = {
      stamp: { size, mtimeMs: st.mtimeMs },
      terms: b.terms,
      triples: b.triples,
      blocks: { offset: b.blockOffset, line: b.blockLine, tokens: b.blockTokens, lines: b.blockLines },
      totalTokens: b.totalTokens,
      regions,
      gaps,
      grams: b.grams,
    };
    return { data: encodeIndex(data), stamp: data.stamp };
  } finally {
    closeSync(fd);
  }
}
