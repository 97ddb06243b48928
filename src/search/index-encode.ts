/**
 * Encoding an index (see index-file.ts for the layout): tokens sorted, front-coded in dictionary
 * blocks with a skip list over them, postings as varints, and the two filters.
 */
import { bloomOf } from './filters.js';
import { DICT_BLOCK, type Gap, type Header, MAGIC, type Region, type Stamp, TRAILER } from './index-file.js';

/** What the builder hands to encodeIndex. */
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
      k = k * 128 + Math.min(c, 127);
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
