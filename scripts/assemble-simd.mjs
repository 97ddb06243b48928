// Assembles the WebAssembly module of src/read/simd.ts (its text form is in that file's comment)
// and prints it as base64: `node scripts/assemble-simd.mjs`. The module is small enough to keep
// assembled by hand, so the build needs no WebAssembly tool chain; test/unit/simd.test.ts checks
// that the bytes in simd.ts are what this prints, and what the functions compute.

import { body, get, HEADER, I32, i32, name, section, set, simd, tee, V128, vec } from './wasm-encode.mjs';

const mem = [0x00, 0x00]; // align 0, offset 0
const splat = (n, local) => [...i32(n), ...simd(0x0f), ...set(local)];
// block { loop { if (p >= limit) break; body; continue } }
// biome-ignore format: instruction tables
const whileBelow = (p, limit, body) => [0x02, 0x40, 0x03, 0x40, ...get(p), ...get(limit), 0x4f, 0x0d, 0x01, ...body, 0x0c, 0x00, 0x0b, 0x0b];
// end = p + n; vend = p + (n & -16)
// biome-ignore format: instruction tables
const bounds = (p, n, end, vend) => [...get(p), ...get(n), 0x6a, ...set(end), ...get(p), ...get(n), ...i32(-16), 0x71, 0x6a, ...set(vend)];
const add = (local, n) => [...get(local), ...i32(n), 0x6a, ...set(local)];

// count(p, n) -> newlines in [p, p+n). Locals: 0 p, 1 n, 2 end, 3 vend, 4 total, 5 nl (v128).
// biome-ignore format: instruction tables
const count = [
  0x02, 0x03, I32, 0x01, V128,
  ...splat(10, 5),
  ...bounds(0, 1, 2, 3),
  ...whileBelow(0, 3, [
    // total += popcnt(bitmask(load(p) == nl))
    ...get(4), ...get(0), ...simd(0x00), ...mem, ...get(5), ...simd(0x23), ...simd(0x64), 0x69, 0x6a, ...set(4),
    ...add(0, 16),
  ]),
  ...whileBelow(0, 2, [
    ...get(4), ...get(0), 0x2d, ...mem, ...i32(10), 0x46, 0x6a, ...set(4),
    ...add(0, 1),
  ]),
  ...get(4),
  0x0b,
];

// lower(src, dst, n): dst[i] = src[i] with A-Z made a-z.
// Locals: 0 src, 1 dst, 2 n, 3 end, 4 vend, 5 b, 6 v (v128), 7 'A'-1, 8 'Z'+1, 9 0x20.
// biome-ignore format: instruction tables
const lower = [
  0x02, 0x03, I32, 0x04, V128,
  ...splat(64, 7), ...splat(91, 8), ...splat(32, 9),
  ...bounds(0, 2, 3, 4),
  ...whileBelow(0, 4, [
    // store(dst, v | (gt_u(v, 'A'-1) & lt_u(v, 'Z'+1) & 0x20))
    ...get(1),
    ...get(0), ...simd(0x00), ...mem, ...tee(6),
    ...get(6), ...get(7), ...simd(0x28), ...get(6), ...get(8), ...simd(0x26), ...simd(0x4e), ...get(9), ...simd(0x4e),
    ...simd(0x50),
    ...simd(0x0b), ...mem,
    ...add(0, 16), ...add(1, 16),
  ]),
  ...whileBelow(0, 3, [
    // store8(dst, b | ((b - 65) <u 26) << 5)
    ...get(1),
    ...get(0), 0x2d, ...mem, ...tee(5),
    ...get(5), ...i32(65), 0x6b, ...i32(26), 0x49, ...i32(5), 0x74, 0x72,
    0x3a, ...mem,
    ...add(0, 1), ...add(1, 1),
  ]),
  0x0b,
];

// suspect(p, n) -> offset from p of the first byte that may start something cleanLine changes
// (a control character other than tab and newline, DEL, or 0xC2, 0xD8, 0xE2: the lead bytes of
// C1 controls and of direction marks), or -1.
// Locals: 0 p, 1 n, 2 end, 3 vend, 4 b, 5 start, 6 v (v128), then splats of 32, 9, 10, 127,
// 0xC2, 0xD8, 0xE2 in 7 to 13.
// (b < 32 && b != 9 && b != 10) || b == 127 || b == 0xc2 || b == 0xd8 || b == 0xe2, b in local `b`
// biome-ignore format: instruction tables
const suspectByte = (b) => [
  ...get(b), ...i32(32), 0x49, ...get(b), ...i32(9), 0x47, 0x71, ...get(b), ...i32(10), 0x47, 0x71,
  ...get(b), ...i32(127), 0x46, 0x72, ...get(b), ...i32(0xc2), 0x46, 0x72,
  ...get(b), ...i32(0xd8), 0x46, 0x72, ...get(b), ...i32(0xe2), 0x46, 0x72,
];
// biome-ignore format: instruction tables
const suspect = [
  0x02, 0x04, I32, 0x08, V128,
  ...get(0), ...set(5),
  ...splat(32, 7), ...splat(9, 8), ...splat(10, 9), ...splat(127, 10),
  ...splat(0xc2, 11), ...splat(0xd8, 12), ...splat(0xe2, 13),
  ...bounds(0, 1, 2, 3),
  ...whileBelow(0, 3, [
    ...get(0), ...simd(0x00), ...mem, ...set(6),
    // (lt_u(v, 32) & ~(v == 9 | v == 10)) | v == 127 | v == 0xc2 | v == 0xd8 | v == 0xe2
    ...get(6), ...get(7), ...simd(0x26),
    ...get(6), ...get(8), ...simd(0x23), ...get(6), ...get(9), ...simd(0x23), ...simd(0x50),
    ...simd(0x4f),
    ...get(6), ...get(10), ...simd(0x23), ...simd(0x50),
    ...get(6), ...get(11), ...simd(0x23), ...simd(0x50),
    ...get(6), ...get(12), ...simd(0x23), ...simd(0x50),
    ...get(6), ...get(13), ...simd(0x23), ...simd(0x50),
    ...simd(0x53), 0x0d, 0x01, // any_true: leave the loop with p at this vector
    ...add(0, 16),
  ]),
  ...whileBelow(0, 2, [
    ...get(0), 0x2d, ...mem, ...set(4),
    ...suspectByte(4),
    0x04, 0x40, ...get(0), ...get(5), 0x6b, 0x0f, 0x0b, // if: return p - start
    ...add(0, 1),
  ]),
  ...i32(-1),
  0x0b,
];

// tally(p, n) -> newlines in [p, p+n); sets the global `untidy` to 1 when a byte there is one
// that suspect() stops at, else 0. One pass does both: bytes are classified by two 16-entry
// tables, one indexed by the low nibble and one by the high nibble, whose entries share a bit
// exactly when the byte is in the set.
// Locals: 0 p, 1 n, 2 end, 3 vend, 4 total, 5 b, 6 flag, 7 v (v128), 8 nl, 9 0x0f, 10 low table,
// 11 high table, 12 acc.
const v128 = (bytes) => [...simd(0x0c), ...bytes];
// Bits: 1 = 0x00-0x0f but tab and newline, 2 = 0x10-0x1f, 4 = 0x7f, 8 = 0xc2 and 0xe2, 16 = 0xd8.
const LOW = [3, 3, 11, 3, 3, 3, 3, 3, 19, 2, 2, 3, 3, 3, 3, 7];
const HIGH = [1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 16, 8, 0];
// biome-ignore format: instruction tables
const tally = [
  0x02, 0x05, I32, 0x06, V128,
  ...splat(10, 8), ...splat(0x0f, 9),
  ...v128(LOW), ...set(10), ...v128(HIGH), ...set(11),
  ...bounds(0, 1, 2, 3),
  ...whileBelow(0, 3, [
    ...get(0), ...simd(0x00), ...mem, ...set(7),
    ...get(4), ...get(7), ...get(8), ...simd(0x23), ...simd(0x64), 0x69, 0x6a, ...set(4),
    // acc |= swizzle(low, v & 0x0f) & swizzle(high, v >> 4)
    ...get(12),
    ...get(10), ...get(7), ...get(9), ...simd(0x4e), ...simd(0x0e),
    ...get(11), ...get(7), ...i32(4), ...simd(0x6d), ...simd(0x0e),
    ...simd(0x4e), ...simd(0x50), ...set(12),
    ...add(0, 16),
  ]),
  ...get(12), ...simd(0x53), ...set(6),
  ...whileBelow(0, 2, [
    ...get(0), 0x2d, ...mem, ...tee(5), ...i32(10), 0x46, ...get(4), 0x6a, ...set(4),
    ...get(6), ...suspectByte(5), 0x72, ...set(6),
    ...add(0, 1),
  ]),
  ...get(6), 0x24, 0x00, // global.set untidy
  ...get(4),
  0x0b,
];

// biome-ignore format: module layout
const bytes = [
  ...HEADER,
  ...section(1, vec([[0x60, 2, I32, I32, 1, I32], [0x60, 3, I32, I32, I32, 0]])), // types
  ...section(3, vec([[0x00], [0x01], [0x00], [0x00]])), // functions
  ...section(5, vec([[0x00, 0x01]])), // memory: 1 page, no maximum
  ...section(6, vec([[I32, 0x01, ...i32(0), 0x0b]])), // global untidy: mutable i32 = 0
  ...section(7, vec([
    [...name('memory'), 0x02, 0x00],
    [...name('count'), 0x00, 0x00],
    [...name('lower'), 0x00, 0x01],
    [...name('suspect'), 0x00, 0x02],
    [...name('tally'), 0x00, 0x03],
    [...name('untidy'), 0x03, 0x00],
  ])),
  ...section(10, vec([body(count), body(lower), body(suspect), body(tally)])),
];
console.log(Buffer.from(bytes).toString('base64'));
