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
import { closeSync, openSync, readSync } from 'node:fs';

const MAGIC = Buffer.from('ctxwrap-index 4\n');
const TRAILER = Buffer.from('ctxwrap-end 4\n');
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

export interface IndexData {
  stamp: Stamp;
  terms: string[];
  triples: { term: Uint32Array; block: Uint32Array; count: Uint32Array; length: number };
  blocks: { offset: number[]; line: number[]; tokens: number[]; lines: number[] };
  totalTokens: number;
  regions: Region[];
  gaps: Gap[];
  /** Trigram filter (see trigramBits). */
  grams: Uint8Array;
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

function writeVarint(buf: Buffer, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[pos++] = n;
  return pos;
}

function sharedPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair between the shared part and the suffix.
  if (i > 0 && (a.charCodeAt(i - 1) & 0xfc00) === 0xd800) i--;
  return i;
}

/**
 * The ids of `terms` in code-unit order (the order of `<`), fast: each term's first five
 * characters (7 bits each; anything past ASCII as 127, which no token holds) and its id are
 * packed in one number and sorted natively; runs that share those five characters are then
 * sorted by string comparison.
 */
export function sortedOrder(terms: readonly string[]): Uint32Array {
  const n = terms.length;
  if (n >= 1 << 18) {
    const ids = Uint32Array.from(terms.keys());
    return ids.sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = terms[i]!;
    let k = 0;
    for (let j = 0; j < 5; j++) {
      const c = j < t.length ? t.charCodeAt(j) : 0;
      k = k * 128 + (c > 127 ? 127 : c);
    }
    keys[i] = k * 2 ** 18 + i;
  }
  keys.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = keys[i]! % 2 ** 18;
  const prefixOf = (i: number) => Math.floor(keys[i]! / 2 ** 18);
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && prefixOf(j) === prefixOf(i)) j++;
    if (j - i > 1) {
      const run = Array.from(order.subarray(i, j)).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
      order.set(run, i);
    }
    i = j;
  }
  return order;
}

/** Encodes an index; postings are (block delta, count) varint pairs in token order. */
export function encodeIndex(d: IndexData): Buffer {
  const order = sortedOrder(d.terms);
  // Group the triples by term (they arrive in block order, which the grouping keeps).
  const counts = new Uint32Array(d.terms.length + 1);
  for (let i = 0; i < d.triples.length; i++) counts[d.triples.term[i]! + 1]!++;
  for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
  const place = counts.slice();
  const byTerm = new Uint32Array(d.triples.length);
  for (let i = 0; i < d.triples.length; i++) byTerm[place[d.triples.term[i]!]!++] = i;

  const post = Buffer.allocUnsafe(d.triples.length * 10 + 16);
  let postLen = 0;
  let dict = Buffer.allocUnsafe(1 << 16);
  let dictLen = 0;
  const skip: { term: string; dict: number; post: number }[] = [];
  let prev = '';
  for (let k = 0; k < order.length; k++) {
    const t = order[k]!;
    const term = d.terms[t]!;
    if (k % DICT_BLOCK === 0) {
      skip.push({ term, dict: dictLen, post: postLen });
      prev = '';
    }
    const start = postLen;
    let last = 0;
    for (let j = counts[t]!; j < counts[t + 1]!; j++) {
      const i = byTerm[j]!;
      const block = d.triples.block[i]!;
      postLen = writeVarint(post, postLen, block - last);
      postLen = writeVarint(post, postLen, d.triples.count[i]!);
      last = block;
    }
    // Entry: shared prefix (UTF-16 units), suffix byte length, suffix, postings byte length.
    const shared = sharedPrefix(prev, term);
    const suffix = term.slice(shared);
    if (dictLen + suffix.length * 3 + 16 > dict.length) {
      const bigger = Buffer.allocUnsafe(dict.length * 2 + suffix.length * 3);
      dict.copy(bigger, 0, 0, dictLen);
      dict = bigger;
    }
    dictLen = writeVarint(dict, dictLen, shared);
    // Tokens are at most MAX_TOKEN (64) units, so at most 192 bytes: a length of 1 or 2 bytes.
    const lenAt = dictLen;
    const bytes = dict.write(suffix, lenAt + 1);
    if (bytes >= 0x80) {
      dict.copyWithin(lenAt + 2, lenAt + 1, lenAt + 1 + bytes);
      writeVarint(dict, lenAt, bytes);
      dictLen = lenAt + 2 + bytes;
    } else {
      dict[lenAt] = bytes;
      dictLen = lenAt + 1 + bytes;
    }
    dictLen = writeVarint(dict, dictLen, postLen - start);
    prev = term;
  }
  dict = dict.subarray(0, dictLen);
  const n = d.blocks.offset.length;
  const table = Buffer.alloc(n * 17);
  for (let i = 0; i < n; i++) {
    table.writeDoubleLE(d.blocks.offset[i]!, i * 8);
    table.writeUInt32LE(d.blocks.line[i]!, n * 8 + i * 4);
    table.writeUInt32LE(Math.min(d.blocks.tokens[i]!, 0xffffffff), n * 12 + i * 4);
    table[n * 16 + i] = d.blocks.lines[i]!;
  }
  // Skip list: (dictionary offset, postings offset, token offset) per block, then the tokens.
  const skipTerms = skip.map((e) => Buffer.from(e.term));
  const skipBuf = Buffer.alloc(skip.length * 12 + skipTerms.reduce((a, b) => a + b.length, 0));
  let termAt = 0;
  skip.forEach((e, k) => {
    skipBuf.writeUInt32LE(e.dict, k * 12);
    skipBuf.writeUInt32LE(e.post, k * 12 + 4);
    skipBuf.writeUInt32LE(termAt, k * 12 + 8);
    termAt += skipTerms[k]!.copy(skipBuf, skip.length * 12 + termAt);
  });
  const bloom = bloomOf(d.terms);
  const header = {
    v: 4 as const,
    stamp: d.stamp,
    blocks: n,
    tokens: d.totalTokens,
    terms: d.terms.length,
    regions: d.regions,
    gaps: d.gaps,
    skips: skip.length,
  };
  // The section offsets depend on the header's own length: settle it with digits padded.
  const pad = (x: number) => String(x).padStart(12, '0');
  const z = [pad(0), pad(0)];
  const headerLen = Buffer.byteLength(
    JSON.stringify({ ...header, bloom: z, skip: z, dict: z, table: z, post: z, grams: z, end: pad(0) }),
  );
  const bloomAt = MAGIC.length + 4 + headerLen;
  const skipAt = bloomAt + bloom.length;
  const dictAt = skipAt + skipBuf.length;
  const tableAt = dictAt + dict.length;
  const postAt = tableAt + table.length;
  const gramsAt = postAt + postLen;
  const end = gramsAt + d.grams.length + TRAILER.length;
  const full: Header = {
    ...header,
    bloom: [bloomAt, bloom.length],
    skip: [skipAt, skipBuf.length],
    dict: [dictAt, dict.length],
    table: [tableAt, table.length],
    post: [postAt, postLen],
    grams: [gramsAt, d.grams.length],
    end,
  };
  const headerBuf = Buffer.alloc(headerLen, 0x20);
  headerBuf.write(JSON.stringify(full));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(headerLen);
  return Buffer.concat([
    MAGIC,
    len,
    headerBuf,
    bloom,
    skipBuf,
    dict,
    table,
    post.subarray(0, postLen),
    d.grams,
    TRAILER,
  ]);
}

const BLOOM_HASHES = 3;
const MIN_PREFIX_KEY = 3;
const MAX_PREFIX_KEY = 6;

function hash32(s: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Calls `each` with the bit positions of `key` in a filter of `bits` bits. */
function bloomBits(key: string, bits: number, each: (bit: number) => void): void {
  const h1 = hash32(key, 0x811c9dc5);
  const h2 = hash32(key, 0x01000193) | 1;
  for (let i = 0; i < BLOOM_HASHES; i++) each(((h1 + Math.imul(i, h2)) >>> 0) % bits);
}

/** A Bloom filter of every token and of its prefixes of 3 to 6 characters (8 bits per key). */
export function bloomOf(terms: readonly string[]): Buffer {
  const buf = Buffer.alloc(Math.max(8, terms.length * 2));
  const bits = buf.length * 8;
  const set = (b: number) => {
    buf[b >>> 3]! |= 1 << (b & 7);
  };
  for (const t of terms) {
    bloomBits(t, bits, set);
    for (let n = MIN_PREFIX_KEY; n <= MAX_PREFIX_KEY && n < t.length; n++)
      bloomBits(t.slice(0, n), bits, set);
  }
  return buf;
}

/** True unless the filter proves that no token equals `word` (exact) or starts with it (prefix). */
export function mayHold(filter: Buffer, word: string, mode: 'exact' | 'prefix'): boolean {
  if (mode === 'prefix' && word.length < MIN_PREFIX_KEY) return true;
  const key = mode === 'prefix' ? word.slice(0, MAX_PREFIX_KEY) : word;
  const bits = filter.length * 8;
  let all = true;
  bloomBits(key, bits, (b) => {
    if ((filter[b >>> 3]! & (1 << (b & 7))) === 0) all = false;
  });
  return all;
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
    const fd = openSync(path, 'r');
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
    return readAt(this.fd, this.base + offset, length);
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
          throw new UnusableIndex('bad skip list');
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
    if (to < from) throw new UnusableIndex('bad dictionary');
    const buf = this.read(h.dict[0] + from, to - from);
    const out: DictEntry[] = [];
    let prev = '';
    let post = skip.readUInt32LE(k * 12 + 4);
    let pos = 0;
    const varint = () => {
      let n = 0;
      for (let shift = 0; ; shift += 7) {
        if (pos >= buf.length || shift > 28) throw new UnusableIndex('bad dictionary');
        const b = buf[pos++]!;
        n += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return n;
      }
    };
    while (pos < buf.length) {
      const shared = varint();
      const len = varint();
      if (shared > prev.length || pos + len > buf.length) throw new UnusableIndex('bad dictionary');
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
    if (to > this.header.post[1]) throw new UnusableIndex('bad postings range');
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
        if (pos >= buf.length || shift > 28) throw new UnusableIndex('bad postings');
        const b = buf[pos++]!;
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return v;
      }
    };
    while (pos < buf.length) {
      const delta = varint();
      block += delta;
      const count = varint();
      if ((n > 0 && delta === 0) || block >= h.blocks || count === 0) throw new UnusableIndex('bad postings');
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

function readAt(fd: number, offset: number, length: number): Buffer {
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

/** The bit of a three-character piece in a trigram filter of `bits` bits (a power of two). */
export function trigramBit(a: number, b: number, c: number, bits: number): number {
  return (
    (Math.imul(Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d), 0x27d4eb2f) >>>
      7) &
    (bits - 1)
  );
}

/** Sets in `filter` the bits of every three-character piece of `text`. */
export function addTrigrams(filter: Uint8Array, text: string): void {
  const bits = filter.length * 8;
  for (let i = 0; i + 2 < text.length; i++) {
    const bit = trigramBit(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2), bits);
    filter[bit >>> 3]! |= 1 << (bit & 7);
  }
}

/** False when some three-character piece of `word` is missing from the filter. */
export function gramsMayHold(filter: Uint8Array, word: string): boolean {
  const bits = filter.length * 8;
  for (let i = 0; i + 2 < word.length; i++) {
    const bit = trigramBit(word.charCodeAt(i), word.charCodeAt(i + 1), word.charCodeAt(i + 2), bits);
    if ((filter[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

/** Size in bytes of the trigram filter for `bytes` of indexed text: a power of two, 1 to 128 KiB. */
export function trigramFilterBytes(bytes: number): number {
  let n = 1024;
  while (n < 128 * 1024 && n * 8 < bytes / 4) n *= 2;
  return n;
}
