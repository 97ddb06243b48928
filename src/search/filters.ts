/**
 * The two filters an index carries, so that a search can tell without reading an index that it
 * cannot hold a word: a Bloom filter of its tokens and of their 3 to 6 character prefixes (for
 * exact and prefix lookups), and a trigram filter of its compounds (for the scans of a word
 * inside longer tokens, and for near spellings).
 */

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
