/**
 * The on-disk index of one stored output, `<run_dir>/index/<id>.idx`, laid out so that a search
 * reads only what it needs: a small header, a skip list (the first token of every dictionary
 * block), the dictionary (sorted tokens, front-coded varint entries, in blocks of DICT_BLOCK),
 * the block table and the postings. A search reads the header and skip list, then one
 * dictionary block and one run of postings per query word.
 *
 *   "ctxwrap-index 4\n" u32 header length, header JSON, Bloom filter, skip list, dictionary,
 *   block table, postings, trigram filter, "ctxwrap-end 4\n"
 *
 * The Bloom filter holds every token and every prefix of 3 to 6 characters of one, so that a
 * search skips an index that cannot hold a word (exactly or as a prefix) without reading it.
 * The trigram filter holds the three-character pieces of every compound, so that the scan for
 * a word inside longer tokens skips outputs that cannot hold it.
 *
 * Nothing in an index is trusted: a file with a wrong magic, length, trailer, stamp or section,
 * or whose content fails to decode, is reported as unusable and rebuilt from the output.
 */
import { closeSync, readSync } from 'node:fs';
import { isPlanted, openFileForRead } from '../store/safe-open.js';
import { gramsMayHold, mayHold } from './filters.js';

export const MAGIC = Buffer.from('ctxwrap-index 4\n');
export const TRAILER = Buffer.from('ctxwrap-end 4\n');
/** Tokens per dictionary block (one entry of the skip list each). */
export const DICT_BLOCK = 64;
/** Bytes read when an index is opened: the header and, for most, the whole skip list. */
const FIRST_READ = 16 * 1024;

/** Thrown when an index file cannot be used; the caller rebuilds it. */
export class UnusableIndex extends Error {}

export interface Region {
  /** Byte range of the output that is indexed. */
  start: number;
  end: number;
  /** 0-based number of its first line, and how many lines it holds. */
  firstLine: number;
  lines: number;
}

/** A byte range of the output that is not indexed (the middle of a very large output). */
export interface Gap {
  start: number;
  end: number;
  firstLine: number;
}

export interface Header {
  v: 4;
  stamp: Stamp;
  blocks: number;
  tokens: number;
  terms: number;
  regions: Region[];
  gaps: Gap[];
  /** [offset, length] of each section, from the start of the file. */
  bloom: [number, number];
  skip: [number, number];
  /** Entries in the skip list (dictionary blocks). */
  skips: number;
  dict: [number, number];
  table: [number, number];
  post: [number, number];
  grams: [number, number];
  end: number;
}

/** Postings of one token: blocks (ascending) and counts. */
export interface Postings {
  term: string;
  blocks: Uint32Array;
  counts: Uint32Array;
}

interface DictEntry {
  term: string;
  post: number;
  len: number;
}

/** Reads one index; every read is checked, and any inconsistency throws UnusableIndex. */
export class IndexReader {
  private skipBuf: Buffer | undefined;
  /** Set when reading this index met something inconsistent: it must be rebuilt. */
  broken = false;

  private unusable(why: string): UnusableIndex {
    this.broken = true;
    return new UnusableIndex(why);
  }

  private constructor(
    private readonly fd: number,
    /** Where the index starts in the file (0, or its place in a pack). */
    private readonly base: number,
    readonly header: Header,
    private readonly first: Buffer,
    private readonly ownsFd: boolean,
  ) {}

  /** Opens an index file and checks its frame; throws UnusableIndex when it cannot be used. */
  static open(path: string, stamp: Stamp): IndexReader {
    const fd = openIndexFile(path);
    try {
      const buf = Buffer.allocUnsafe(FIRST_READ);
      const got = readSync(fd, buf, 0, FIRST_READ, 0);
      const first = buf.subarray(0, got);
      // A short first read is the whole file; otherwise the header says how long it is, and the
      // trailer read at that length proves it (a shorter file fails that read).
      const size = got < FIRST_READ ? got : undefined;
      const header = parseHeader(first, size, (offset, length) => readAt(fd, offset, length), stamp, true);
      return new IndexReader(fd, 0, header, first, true);
    } catch (error) {
      closeSync(fd);
      if (error instanceof UnusableIndex) throw error;
      throw new UnusableIndex((error as Error).message);
    }
  }

  /** Reads an index held in memory (one just built). */
  static fromBuffer(buf: Buffer, stamp: Stamp): IndexReader {
    const at = (offset: number, length: number) => buf.subarray(offset, offset + length);
    try {
      return new IndexReader(-1, 0, parseHeader(buf, buf.length, at, stamp, true), buf, false);
    } catch (error) {
      if (error instanceof UnusableIndex) throw error;
      throw new UnusableIndex((error as Error).message);
    }
  }

  /**
   * Reads an index stored at `base` in a pack open on `fd` (which the pack closes), given a copy
   * of its first bytes (header and skip list) and its length.
   */
  static inPack(fd: number, base: number, length: number, head: Buffer, stamp: Stamp): IndexReader {
    const at = (offset: number, n: number) => {
      if (offset + n > length) throw new UnusableIndex('read past the index');
      return readAt(fd, base + offset, n);
    };
    try {
      return new IndexReader(fd, base, parseHeader(head, length, at, stamp, false), head, false);
    } catch (error) {
      if (error instanceof UnusableIndex) throw error;
      throw new UnusableIndex((error as Error).message);
    }
  }

  close(): void {
    if (this.ownsFd) closeSync(this.fd);
  }

  private read(offset: number, length: number): Buffer {
    if (offset + length <= this.first.length) return this.first.subarray(offset, offset + length);
    try {
      return readAt(this.fd, this.base + offset, length);
    } catch (error) {
      if (error instanceof UnusableIndex) this.broken = true;
      throw error;
    }
  }

  private skip(): Buffer {
    if (!this.skipBuf) {
      const h = this.header;
      const buf = this.read(h.skip[0], h.skip[1]);
      let last = -1;
      for (let k = 0; k < h.skips; k++) {
        const [d, p, t] = [
          buf.readUInt32LE(k * 12),
          buf.readUInt32LE(k * 12 + 4),
          buf.readUInt32LE(k * 12 + 8),
        ];
        if (d > h.dict[1] || p > h.post[1] || t < last || h.skips * 12 + t > buf.length)
          throw this.unusable('bad skip list');
        last = t;
      }
      this.skipBuf = buf;
    }
    return this.skipBuf;
  }

  /** First token of dictionary block `k`. */
  private skipTerm(k: number): string {
    const buf = this.skip();
    const n = this.header.skips;
    const from = n * 12 + buf.readUInt32LE(k * 12 + 8);
    const to = k + 1 < n ? n * 12 + buf.readUInt32LE(k * 12 + 20) : buf.length;
    return buf.toString('utf8', from, to);
  }

  /** The tokens of dictionary block `k`, with the byte range of each one's postings. */
  private dictBlock(k: number): DictEntry[] {
    const h = this.header;
    const skip = this.skip();
    const from = skip.readUInt32LE(k * 12);
    const to = k + 1 < h.skips ? skip.readUInt32LE(k * 12 + 12) : h.dict[1];
    if (to < from) throw this.unusable('bad dictionary');
    const buf = this.read(h.dict[0] + from, to - from);
    const out: DictEntry[] = [];
    let prev = '';
    let post = skip.readUInt32LE(k * 12 + 4);
    let pos = 0;
    const varint = () => {
      let n = 0;
      for (let shift = 0; ; shift += 7) {
        if (pos >= buf.length || shift > 28) throw this.unusable('bad dictionary');
        const b = buf[pos++]!;
        n += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return n;
      }
    };
    while (pos < buf.length) {
      const shared = varint();
      const len = varint();
      if (shared > prev.length || pos + len > buf.length) throw this.unusable('bad dictionary');
      prev = prev.slice(0, shared) + buf.toString('utf8', pos, pos + len);
      pos += len;
      const postLen = varint();
      out.push({ term: prev, post, len: postLen });
      post += postLen;
    }
    return out;
  }

  /** Index of the last dictionary block whose first token is <= `term` (0 when none). */
  private blockFor(term: string): number {
    let lo = 0;
    let hi = this.header.skips - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.skipTerm(mid) <= term) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Tokens equal to `prefix` (exact) or starting with it (prefix), with their postings, at most
   * `max` of them (the shortest); `keep` filters the tokens before any postings are read.
   */
  find(prefix: string, mode: 'exact' | 'prefix', max = 64, keep?: (term: string) => boolean): Postings[] {
    if (this.header.skips === 0) return [];
    if (!mayHold(this.read(this.header.bloom[0], this.header.bloom[1]), prefix, mode)) return [];
    const found: DictEntry[] = [];
    for (let k = this.blockFor(prefix); k < this.header.skips; k++) {
      let past = false;
      for (const e of this.dictBlock(k)) {
        if (e.term < prefix) continue;
        if (mode === 'exact' ? e.term !== prefix : !e.term.startsWith(prefix)) {
          past = true;
          break;
        }
        if (!keep || keep(e.term)) found.push(e);
      }
      if (past || mode === 'exact') break;
    }
    if (found.length === 0) return [];
    const chosen =
      found.length <= max ? found : [...found].sort((a, b) => a.term.length - b.term.length).slice(0, max);
    // The postings of tokens next to each other in the dictionary are next to each other on
    // disk: read the span once.
    let from = Number.POSITIVE_INFINITY;
    let to = 0;
    for (const e of chosen) {
      from = Math.min(from, e.post);
      to = Math.max(to, e.post + e.len);
    }
    if (to > this.header.post[1]) throw this.unusable('bad postings range');
    const span = this.read(this.header.post[0] + from, to - from);
    return chosen.map((e) => this.postings(e.term, span.subarray(e.post - from, e.post - from + e.len)));
  }

  private postings(term: string, buf: Buffer): Postings {
    const h = this.header;
    const blocks = new Uint32Array(buf.length >> 1);
    const counts = new Uint32Array(buf.length >> 1);
    let n = 0;
    let pos = 0;
    let block = 0;
    const varint = () => {
      let v = 0;
      for (let shift = 0; ; shift += 7) {
        if (pos >= buf.length || shift > 28) throw this.unusable('bad postings');
        const b = buf[pos++]!;
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return v;
      }
    };
    while (pos < buf.length) {
      const delta = varint();
      block += delta;
      const count = varint();
      if ((n > 0 && delta === 0) || block >= h.blocks || count === 0) throw this.unusable('bad postings');
      blocks[n] = block;
      counts[n] = count;
      n++;
    }
    return { term, blocks: blocks.subarray(0, n), counts: counts.subarray(0, n) };
  }

  /** False when the trigram filter proves that no compound holds `word` (lowercase). */
  mayContain(word: string): boolean {
    this.gramsCache ??= this.read(this.header.grams[0], this.header.grams[1]);
    return gramsMayHold(this.gramsCache, word);
  }

  /**
   * False when the trigram filter proves that no compound is within one edit of `word`: such a
   * compound keeps all but at most three of the word's three-character pieces.
   */
  mayHoldNear(word: string): boolean {
    this.gramsCache ??= this.read(this.header.grams[0], this.header.grams[1]);
    const pieces = word.length - 2;
    if (pieces <= 3) return true;
    let present = 0;
    for (let i = 0; i + 2 < word.length; i++)
      if (gramsMayHold(this.gramsCache, word.slice(i, i + 3))) present++;
    return present >= pieces - 3;
  }

  private gramsCache: Buffer | undefined;

  /** The block table: byte offset, first line (0-based), token count and line count of each block. */
  table(): BlockTable {
    this.tableCache ??= this.readTable();
    return this.tableCache;
  }

  private tableCache: BlockTable | undefined;

  private readTable(): BlockTable {
    const h = this.header;
    const buf = this.read(h.table[0], h.table[1]);
    const n = h.blocks;
    return {
      offset: (k) => buf.readDoubleLE(k * 8),
      line: (k) => buf.readUInt32LE(n * 8 + k * 4),
      tokens: (k) => buf.readUInt32LE(n * 12 + k * 4),
      lines: (k) => buf[n * 16 + k]!,
    };
  }
}

export interface BlockTable {
  offset(k: number): number;
  line(k: number): number;
  tokens(k: number): number;
  lines(k: number): number;
}

/** What an index was built from: the output's size and modification time. */
export interface Stamp {
  size: number;
  mtimeMs: number;
}

function parseHeader(
  first: Buffer,
  knownSize: number | undefined,
  readAt: (offset: number, length: number) => Buffer,
  stamp: Stamp,
  checkTrailer: boolean,
): Header {
  if (first.length < MAGIC.length + 4 + TRAILER.length || !first.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new UnusableIndex('bad magic');
  }
  const headerLen = first.readUInt32LE(MAGIC.length);
  const hStart = MAGIC.length + 4;
  if (knownSize !== undefined && hStart + headerLen > knownSize - TRAILER.length)
    throw new UnusableIndex('bad header length');
  if (headerLen > 1 << 20) throw new UnusableIndex('bad header length');
  const hBuf =
    hStart + headerLen <= first.length
      ? first.subarray(hStart, hStart + headerLen)
      : readAt(hStart, headerLen);
  const header = JSON.parse(hBuf.toString('utf8')) as Header;
  const size = knownSize ?? header?.end;
  checkHeader(header, size, hStart + headerLen);
  if (header.stamp.size !== stamp.size || header.stamp.mtimeMs !== stamp.mtimeMs)
    throw new UnusableIndex('stale');
  if (checkTrailer) {
    const trailer =
      size <= first.length
        ? first.subarray(size - TRAILER.length, size)
        : readAt(size - TRAILER.length, TRAILER.length);
    if (!trailer.equals(TRAILER)) throw new UnusableIndex('bad trailer');
  }
  return header;
}

/** Reads exactly `length` bytes at `offset`; a short file is an unusable index. */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, offset + got);
    if (n === 0) throw new UnusableIndex('short read');
    got += n;
  }
  return buf;
}

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isSection = (s: unknown): s is [number, number] => Array.isArray(s) && isCount(s[0]) && isCount(s[1]);

function checkHeader(h: Header, size: number, headerEnd: number): void {
  const ok =
    h?.v === 4 &&
    h.end === size &&
    isCount(h.blocks) &&
    isCount(h.tokens) &&
    isCount(h.terms) &&
    isCount(h.skips) &&
    isCount(h.stamp?.size) &&
    typeof h.stamp.mtimeMs === 'number' &&
    Array.isArray(h.regions) &&
    Array.isArray(h.gaps) &&
    [h.bloom, h.skip, h.dict, h.table, h.post].every(isSection) &&
    h.bloom[0] === headerEnd &&
    h.bloom[1] >= 8 &&
    h.skip[0] === h.bloom[0] + h.bloom[1] &&
    h.skip[1] >= h.skips * 12 &&
    h.dict[0] === h.skip[0] + h.skip[1] &&
    h.table[0] === h.dict[0] + h.dict[1] &&
    h.table[1] === h.blocks * 17 &&
    h.post[0] === h.table[0] + h.table[1] &&
    isSection(h.grams) &&
    h.grams[0] === h.post[0] + h.post[1] &&
    h.grams[1] >= 8 &&
    (h.grams[1] & (h.grams[1] - 1)) === 0 &&
    h.grams[0] + h.grams[1] + TRAILER.length === size &&
    h.gaps.every(
      (g) =>
        isCount(g.start) &&
        isCount(g.end) &&
        isCount(g.firstLine) &&
        g.start <= g.end &&
        g.end <= h.stamp.size,
    ) &&
    h.regions.every((r) => isCount(r.start) && isCount(r.end) && isCount(r.firstLine) && isCount(r.lines));
  if (!ok) throw new UnusableIndex('bad header');
}

/** The first bytes of an encoded index that a search reads first: header and skip list. */
export function headOf(data: Buffer): Buffer {
  const headerLen = data.readUInt32LE(MAGIC.length);
  const header = JSON.parse(data.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + headerLen)) as Header;
  return data.subarray(0, header.skip[0] + header.skip[1]);
}

/**
 * Opens an index file without following a link or blocking on a FIFO; something planted there
 * is an unusable index (rebuilt), a missing file stays ENOENT.
 */
export function openIndexFile(path: string): number {
  try {
    return openFileForRead(path);
  } catch (error) {
    if (isPlanted(error)) throw new UnusableIndex(`${path} is not a regular file`);
    throw error;
  }
}
