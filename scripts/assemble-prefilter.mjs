// Assembles the WebAssembly module of src/summary/fingerprint-filter.ts (its text form is in that
// file's comment) and prints it as base64: `node scripts/assemble-prefilter.mjs`. Assembled by
// hand like scripts/assemble-simd.mjs, so the build needs no WebAssembly tool chain;
// test/unit/fingerprint-filter.test.ts checks that the bytes in the module are what this prints.

import { body, get, HEADER, I32, i32, name, section, set, simd, tee, V128, vec } from './wasm-encode.mjs';

const load = (offset) => [...simd(0x00), 0x00, offset]; // v128.load, align 0
const v128 = (bytes) => [...simd(0x0c), ...bytes];

// find(p, end) -> the first position in [p, end) (rounded up to whole 16-byte blocks: the caller
// ignores positions >= end) where some fingerprint may start, or -1.
// Memory [0, 256): the tables, 16 bytes each, table (j, k, h) at 16 * (8j + 2k + h): pass j (0, 1:
// buckets 0-7 and 8-15), byte k of the fingerprint (0-3), h = 0 indexed by the low nibble, 1 by
// the high nibble. Locals: 0 p, 1 end, 2-17 the tables, 18 0x0f, 19-22 low nibbles of the bytes
// at p, p+1, p+2, p+3, 23-26 their high nibbles, 27 v then the block's candidates.
const TABLE = (j, k, h) => 2 + 8 * j + 2 * k + h;
const P = 27;
const pass = (j) => [
  // AND over k of swizzle(lo_jk, low_k) & swizzle(hi_jk, high_k)
  ...[0, 1, 2, 3].flatMap((k) => [
    ...get(TABLE(j, k, 0)),
    ...get(19 + k),
    ...simd(0x0e),
    ...get(TABLE(j, k, 1)),
    ...get(23 + k),
    ...simd(0x0e),
    ...simd(0x4e),
    ...(k > 0 ? simd(0x4e) : []),
  ]),
];
// biome-ignore format: instruction tables
const find = [
  0x01, 26, V128,
  ...[...Array(16).keys()].flatMap((t) => [...i32(16 * t), ...load(0), ...set(2 + t)]),
  ...i32(0x0f), ...simd(0x0f), ...set(18),
  0x02, 0x40, 0x03, 0x40,
  ...get(0), ...get(1), 0x4f, 0x0d, 0x01, // p >= end: leave
  ...[0, 1, 2, 3].flatMap((k) => [
    ...get(0), ...load(k), ...tee(P),
    ...get(18), ...simd(0x4e), ...set(19 + k),
    ...get(P), ...i32(4), ...simd(0x6d), ...set(23 + k),
  ]),
  ...pass(0), ...pass(1), ...simd(0x50), ...tee(P),
  ...simd(0x53), 0x04, 0x40, // if any lane is a candidate: return p + index of the first
  ...get(0), ...get(P), ...v128(Array(16).fill(0)), ...simd(0x24), ...simd(0x64), 0x68, 0x6a, 0x0f,
  0x0b,
  ...get(0), ...i32(16), 0x6a, ...set(0),
  0x0c, 0x00, 0x0b, 0x0b,
  ...i32(-1),
  0x0b,
];

// count(p, n) -> newlines in [p, p+n), as in src/read/simd.ts.
// Locals: 0 p, 1 n, 2 end, 3 vend, 4 total, 5 nl (v128).
const whileBelow = (p, limit, body) => [
  0x02,
  0x40,
  0x03,
  0x40,
  ...get(p),
  ...get(limit),
  0x4f,
  0x0d,
  0x01,
  ...body,
  0x0c,
  0x00,
  0x0b,
  0x0b,
];
const add = (local, n) => [...get(local), ...i32(n), 0x6a, ...set(local)];
// biome-ignore format: instruction tables
const count = [
  0x02, 0x03, I32, 0x01, V128,
  ...i32(10), ...simd(0x0f), ...set(5),
  ...get(0), ...get(1), 0x6a, ...set(2), ...get(0), ...get(1), ...i32(-16), 0x71, 0x6a, ...set(3),
  ...whileBelow(0, 3, [
    ...get(4), ...get(0), ...simd(0x00), 0x00, 0x00, ...get(5), ...simd(0x23), ...simd(0x64), 0x69, 0x6a, ...set(4),
    ...add(0, 16),
  ]),
  ...whileBelow(0, 2, [
    ...get(4), ...get(0), 0x2d, 0x00, 0x00, ...i32(10), 0x46, 0x6a, ...set(4),
    ...add(0, 1),
  ]),
  ...get(4),
  0x0b,
];

// biome-ignore format: module layout
const bytes = [
  ...HEADER,
  ...section(1, vec([[0x60, 2, I32, I32, 1, I32]])), // type: (i32, i32) -> i32
  ...section(3, vec([[0x00], [0x00]])), // functions
  ...section(5, vec([[0x00, 0x01]])), // memory: 1 page, no maximum
  ...section(7, vec([
    [...name('memory'), 0x02, 0x00],
    [...name('find'), 0x00, 0x00],
    [...name('count'), 0x00, 0x01],
  ])),
  ...section(10, vec([body(find), body(count)])),
];
console.log(Buffer.from(bytes).toString('base64'));
