/**
 * The two filters an index carries, so that a search can tell without reading an index that it
 * cannot hold a word: a Bloom filter of its tokens and of their 3 to 6 character prefixes (for
 * exact and prefix lookups), and a trigram filter of its compounds (for the scans of a word
 * inside longer tokens, and for near spellings).
 */

const BLOOM_HASHES = 3;
const MIN_PREFIX_KEY = 3;
const MAX_PREFIX_KEY = 6;

const SEED1 = 0x811c9dc5;
const SEED2 = 0x01000193;

/** Sets (or, with `test`, checks) the bits of one key whose two hashes are h1 and h2. */
function probe(filter: Uint8Array, h1: number, h2: number, test: boolean): boolean {
  const bits = filter.length * 8;
  const step = h2 | 1;
  for (let i = 0; i < BLOOM_HASHES; i++) {
    const b = ((h1 + Math.imul(i, step)) >>> 0) % bits;
    if (test) {
      if ((filter[b >>> 3]! & (1 << (b & 7))) === 0) return false;
    } else {
      filter[b >>> 3]! |= 1 << (b & 7);
    }
  }
  return true;
}

/**
 * Runs two FNV-style hashes along `s` and calls `at(n, h1, h2)` after `n` characters, for each n
 * in `lengths` (ascending): the hashes of every prefix without making the prefix strings.
 */
function hashPrefixes(s: string, lengths: readonly number[], at: (h1: number, h2: number) => void): void {
  let h1 = SEED1;
  let h2 = SEED2;
  let k = 0;
  for (let i = 0; i < s.length && k < lengths.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = Math.imul(h2 ^ c, 2246822519);
    while (k < lengths.length && lengths[k] === i + 1) {
      at(h1 >>> 0, h2 >>> 0);
      k++;
    }
  }
}

/** A Bloom filter of every token and of its prefixes of 3 to 6 characters (8 bits per key). */
export function bloomOf(terms: readonly string[]): Buffer {
  const buf = Buffer.alloc(Math.max(8, terms.length * 2));
  const set = (h1: number, h2: number) => {
    probe(buf, h1, h2, false);
  };
  const lengths: number[] = [];
  for (const t of terms) {
    lengths.length = 0;
    for (let n = MIN_PREFIX_KEY; n <= MAX_PREFIX_KEY && n < t.length; n++) lengths.push(n);
    lengths.push(t.length);
    hashPrefixes(t, lengths, set);
  }
  return buf;
}

/** True unless the filter proves that no token equals `word` (exact) or starts with it (prefix). */
export function mayHold(filter: Buffer, word: string, mode: 'exact' | 'prefix'): boolean {
  if (mode === 'prefix' && word.length < MIN_PREFIX_KEY) return true;
  const n = mode === 'prefix' ? Math.min(word.length, MAX_PREFIX_KEY) : word.length;
  let held = true;
  hashPrefixes(word, [n], (h1, h2) => {
    held = probe(filter, h1, h2, true);
  });
  return held;
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
