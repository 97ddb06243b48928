// The WebAssembly binary encoding shared by the hand assemblers (scripts/assemble-simd.mjs,
// the prefilter assembler was removed with its module): numbers, vectors, sections, names, function bodies, and the
// few instructions both use.

export const I32 = 0x7f;
export const V128 = 0x7b;
/** A SIMD opcode (every one used here is below 128). */
export const simd = (op) => [0xfd, op];
export const get = (i) => [0x20, i];
export const set = (i) => [0x21, i];
export const tee = (i) => [0x22, i];
export const i32 = (n) => [0x41, ...sleb(n)];

/** Signed LEB128. */
export function sleb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

/** Unsigned LEB128. */
export function uleb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

export const vec = (items) => [...uleb(items.length), ...items.flat()];
export const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
export const name = (s) => [...uleb(s.length), ...Buffer.from(s)];
export const body = (code) => [...uleb(code.length), ...code];
/** The module header: magic and version 1. */
export const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
