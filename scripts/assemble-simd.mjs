// Assembles the WebAssembly module of src/read/simd.ts (its text form is in that file's comment)
// and prints it as base64: `node scripts/assemble-simd.mjs`. The module is small enough to keep
// assembled by hand, so the build needs no WebAssembly tool chain.

const I32 = 0x7f;
const V128 = 0x7b;
const simd = (op) => [0xfd, op]; // every SIMD opcode used here is below 128
const get = (i) => [0x20, i];
const set = (i) => [0x21, i];
const tee = (i) => [0x22, i];
const i32 = (n) => [0x41, ...sleb(n)];
const mem = [0x00, 0x00]; // align 0, offset 0
const loopWhileBelow = (p, limit, body) => [
  0x02,
  0x40,
  0x03,
  0x40, // block, loop
  ...get(p),
  ...get(limit),
  0x4f,
  0x0d,
  0x01, // br_if 1 (p >= limit)
  ...body,
  0x0c,
  0x00,
  0x0b,
  0x0b, // br 0, end, end
];

function sleb(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}

// count(p, n) -> newlines in [p, p+n)
// locals: 0 p, 1 n, 2 end, 3 vend, 4 total, 5 nl (v128)
const count = [
  0x02,
  0x03,
  I32,
  0x01,
  V128,
  ...i32(10),
  ...simd(0x0f),
  ...set(5), // nl = i8x16.splat(10)
  ...get(0),
  ...get(1),
  0x6a,
  ...set(2), // end = p + n
  ...get(0),
  ...get(1),
  ...i32(-16),
  0x71,
  0x6a,
  ...set(3), // vend = p + (n & -16)
  ...loopWhileBelow(0, 3, [
    ...get(4),
    ...get(0),
    ...simd(0x00),
    ...mem,
    ...get(5),
    ...simd(0x23),
    ...simd(0x64),
    0x69,
    0x6a,
    ...set(4),
    ...get(0),
    ...i32(16),
    0x6a,
    ...set(0),
  ]),
  ...loopWhileBelow(0, 2, [
    ...get(4),
    ...get(0),
    0x2d,
    ...mem,
    ...i32(10),
    0x46,
    0x6a,
    ...set(4),
    ...get(0),
    ...i32(1),
    0x6a,
    ...set(0),
  ]),
  ...get(4),
  0x0b,
];

// lower(src, dst, n): dst[i] = ASCII lower case of src[i]
// locals: 0 src, 1 dst, 2 n, 3 end, 4 vend, 5 b, 6 v (v128), 7 a, 8 z, 9 bit
const lower = [
  0x02,
  0x03,
  I32,
  0x04,
  V128,
  ...i32(64),
  ...simd(0x0f),
  ...set(7), // a = splat('A' - 1)
  ...i32(91),
  ...simd(0x0f),
  ...set(8), // z = splat('Z' + 1)
  ...i32(32),
  ...simd(0x0f),
  ...set(9), // bit = splat(0x20)
  ...get(0),
  ...get(2),
  0x6a,
  ...set(3),
  ...get(0),
  ...get(2),
  ...i32(-16),
  0x71,
  0x6a,
  ...set(4),
  ...loopWhileBelow(0, 4, [
    ...get(1),
    ...get(0),
    ...simd(0x00),
    ...mem,
    ...tee(6),
    ...get(6),
    ...get(7),
    ...simd(0x28), // i8x16.gt_u(v, a)
    ...get(6),
    ...get(8),
    ...simd(0x26), // i8x16.lt_u(v, z)
    ...simd(0x4e),
    ...get(9),
    ...simd(0x4e), // and, and bit
    ...simd(0x50), // or
    ...simd(0x0b),
    ...mem, // v128.store
    ...get(0),
    ...i32(16),
    0x6a,
    ...set(0),
    ...get(1),
    ...i32(16),
    0x6a,
    ...set(1),
  ]),
  ...loopWhileBelow(0, 3, [
    ...get(1),
    ...get(0),
    0x2d,
    ...mem,
    ...tee(5),
    ...get(5),
    ...i32(65),
    0x6b,
    ...i32(26),
    0x49,
    ...i32(5),
    0x74,
    0x72, // b | ((b - 65) <u 26) << 5
    0x3a,
    ...mem, // i32.store8
    ...get(0),
    ...i32(1),
    0x6a,
    ...set(0),
    ...get(1),
    ...i32(1),
    0x6a,
    ...set(1),
  ]),
  0x0b,
];

const uleb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const name = (s) => [...uleb(s.length), ...Buffer.from(s)];
const body = (code) => [...uleb(code.length), ...code];

const bytes = [
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  ...section(
    1,
    vec([
      [0x60, 2, I32, I32, 1, I32],
      [0x60, 3, I32, I32, I32, 0],
    ]),
  ),
  ...section(3, vec([[0x00], [0x01]])),
  ...section(5, vec([[0x00, 0x01]])),
  ...section(
    7,
    vec([
      [...name('memory'), 0x02, 0x00],
      [...name('count'), 0x00, 0x00],
      [...name('lower'), 0x00, 0x01],
    ]),
  ),
  ...section(10, vec([body(count), body(lower)])),
];
console.log(Buffer.from(bytes).toString('base64'));
