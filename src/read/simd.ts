/**
 * Byte loops that must run at memory speed, in an 867-byte WebAssembly module using 16-byte
 * SIMD instructions. Line numbers are what make `read` useful, and to number a match near the
 * end of a 2 GB result every newline before it must be counted: a JavaScript loop (or one
 * `indexOf` call per line) costs more than the whole of `grep -n`. And a case-insensitive
 * pattern is searched for in an ASCII-lower-cased copy of each block, with the same native byte
 * search as any other literal. And grep must know which blocks hold anything `cleanLine` would
 * change (those are searched in cleaned form): `tally` counts a block's newlines and flags such
 * bytes in the same pass, so that only flagged blocks are looked at closely. The scan buffer
 * lives in the WebAssembly memory, so that file reads land where the module can see them
 * without a copy.
 *
 * The module in text form; `node scripts/assemble-simd.mjs` assembles it into the bytes below:
 *
 *   (module
 *     (memory (export "memory") 1)
 *     ;; newlines in [p, p+n)
 *     (func (export "count") (param $p i32) (param $n i32) (result i32)
 *       (local $end i32) (local $vend i32) (local $total i32) (local $nl v128)
 *       (local.set $nl (i8x16.splat (i32.const 10)))
 *       (local.set $end (i32.add (local.get $p) (local.get $n)))
 *       (local.set $vend (i32.add (local.get $p) (i32.and (local.get $n) (i32.const -16))))
 *       (block $done (loop $vec
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $vend)))
 *         (local.set $total (i32.add (local.get $total)
 *           (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $nl))))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *         (br $vec)))
 *       (block $done (loop $byte
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         (local.set $total (i32.add (local.get $total) (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 1)))
 *         (br $byte)))
 *       (local.get $total))
 *     ;; dst[i] = src[i] with A-Z made a-z, for i in [0, n)
 *     (func (export "lower") (param $src i32) (param $dst i32) (param $n i32)
 *       (local $end i32) (local $vend i32) (local $b i32) (local $v v128) (local $a v128) (local $z v128) (local $bit v128)
 *       (local.set $a (i8x16.splat (i32.const 64)))
 *       (local.set $z (i8x16.splat (i32.const 91)))
 *       (local.set $bit (i8x16.splat (i32.const 32)))
 *       (local.set $end (i32.add (local.get $src) (local.get $n)))
 *       (local.set $vend (i32.add (local.get $src) (i32.and (local.get $n) (i32.const -16))))
 *       (block $done (loop $vec
 *         (br_if $done (i32.ge_u (local.get $src) (local.get $vend)))
 *         (v128.store (local.get $dst)
 *           (v128.or (local.tee $v (v128.load (local.get $src)))
 *             (v128.and (v128.and (i8x16.gt_u (local.get $v) (local.get $a)) (i8x16.lt_u (local.get $v) (local.get $z)))
 *               (local.get $bit))))
 *         (local.set $src (i32.add (local.get $src) (i32.const 16)))
 *         (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
 *         (br $vec)))
 *       (block $done (loop $byte
 *         (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
 *         (i32.store8 (local.get $dst)
 *           (i32.or (local.tee $b (i32.load8_u (local.get $src)))
 *             (i32.shl (i32.lt_u (i32.sub (local.get $b) (i32.const 65)) (i32.const 26)) (i32.const 5))))
 *         (local.set $src (i32.add (local.get $src) (i32.const 1)))
 *         (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
 *         (br $byte)))
 *     ;; offset from p of the first byte that may start something cleanLine changes (a control
 *     ;; character other than tab and newline, DEL, or 0xC2, 0xD8, 0xE2: lead bytes of C1
 *     ;; controls and direction marks), or -1
 *     (func (export "suspect") (param $p i32) (param $n i32) (result i32)
 *       (local $end i32) (local $vend i32) (local $b i32) (local $start i32) (local $v v128)
 *       (local $space v128) (local $tab v128) (local $nl v128) (local $del v128)
 *       (local $c2 v128) (local $d8 v128) (local $e2 v128)
 *       (local.set $start (local.get $p))
 *       ... $space to $e2 set to i8x16.splat of 32, 9, 10, 127, 0xC2, 0xD8, 0xE2; $end, $vend as above
 *       (block $done (loop $vec
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $vend)))
 *         (local.set $v (v128.load (local.get $p)))
 *         (br_if $done (v128.any_true
 *           (v128.or (v128.or (v128.or (v128.or
 *             (v128.andnot (i8x16.lt_u (local.get $v) (local.get $space))
 *                          (v128.or (i8x16.eq (local.get $v) (local.get $tab)) (i8x16.eq (local.get $v) (local.get $nl))))
 *             (i8x16.eq (local.get $v) (local.get $del))) (i8x16.eq (local.get $v) (local.get $c2)))
 *             (i8x16.eq (local.get $v) (local.get $d8))) (i8x16.eq (local.get $v) (local.get $e2)))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *         (br $vec)))
 *       (block $done (loop $byte
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         (local.set $b (i32.load8_u (local.get $p)))
 *         (if (i32.or (i32.or (i32.or (i32.or
 *               (i32.and (i32.and (i32.lt_u (local.get $b) (i32.const 32)) (i32.ne (local.get $b) (i32.const 9)))
 *                        (i32.ne (local.get $b) (i32.const 10)))
 *               (i32.eq (local.get $b) (i32.const 127))) (i32.eq (local.get $b) (i32.const 0xC2)))
 *               (i32.eq (local.get $b) (i32.const 0xD8))) (i32.eq (local.get $b) (i32.const 0xE2)))
 *           (then (return (i32.sub (local.get $p) (local.get $start)))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 1)))
 *         (br $byte)))
 *       (i32.const -1))
 *     ;; newlines in [p, p+n), and the global $untidy set to whether a byte there is one suspect
 *     ;; stops at. Bytes are classified by two 16-entry tables, indexed by the low and by the high
 *     ;; nibble, whose entries share a bit exactly for those bytes (1: 0x00-0x0F but tab and
 *     ;; newline, 2: 0x10-0x1F, 4: 0x7F, 8: 0xC2 and 0xE2, 16: 0xD8).
 *     (global $untidy (export "untidy") (mut i32) (i32.const 0))
 *     (func (export "tally") (param $p i32) (param $n i32) (result i32)
 *       (local $end i32) (local $vend i32) (local $total i32) (local $b i32) (local $flag i32)
 *       (local $v v128) (local $nl v128) (local $nibble v128) (local $low v128) (local $high v128) (local $acc v128)
 *       (local.set $nl (i8x16.splat (i32.const 10)))
 *       (local.set $nibble (i8x16.splat (i32.const 0x0f)))
 *       (local.set $low (v128.const i8x16 3 3 11 3 3 3 3 3 19 2 2 3 3 3 3 7))
 *       (local.set $high (v128.const i8x16 1 2 0 0 0 0 0 4 0 0 0 0 8 16 8 0))
 *       ... $end, $vend as above
 *       (block $done (loop $vec
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $vend)))
 *         (local.set $v (v128.load (local.get $p)))
 *         (local.set $total (i32.add (local.get $total)
 *           (i32.popcnt (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $nl))))))
 *         (local.set $acc (v128.or (local.get $acc)
 *           (v128.and (i8x16.swizzle (local.get $low) (v128.and (local.get $v) (local.get $nibble)))
 *                     (i8x16.swizzle (local.get $high) (i8x16.shr_u (local.get $v) (i32.const 4))))))
 *         (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *         (br $vec)))
 *       (local.set $flag (v128.any_true (local.get $acc)))
 *       (block $done (loop $byte
 *         (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
 *         (local.set $total (i32.add (i32.eq (local.tee $b (i32.load8_u (local.get $p))) (i32.const 10))
 *           (local.get $total)))
 *         (local.set $flag (i32.or (local.get $flag) <the byte test of suspect, on $b>))
 *         (local.set $p (i32.add (local.get $p) (i32.const 1)))
 *         (br $byte)))
 *       (global.set $untidy (local.get $flag))
 *       (local.get $total)))
 *
 * Where WebAssembly is not available (node --jitless), the same answers come from plain loops.
 */

const MODULE =
  'AGFzbQEAAAABDQJgAn9/AX9gA39/fwADBQQAAQAABQMBAAEGBgF/AUEACwc1BgZtZW1vcnkCAAVjb3VudAAABWxvd2VyAAEHc3VzcGVjdAACBXRhbGx5AAMGdW50aWR5AwAK/gUEagIDfwF7QQr9DyEFIAAgAWohAiAAIAFBcHFqIQMCQANAIAAgA08NASAEIAD9AAAAIAX9I/1kaWohBCAAQRBqIQAMAAsLAkADQCAAIAJPDQEgBCAALQAAQQpGaiEEIABBAWohAAwACwsgBAugAQIDfwR7QcAA/Q8hB0HbAP0PIQhBIP0PIQkgACACaiEDIAAgAkFwcWohBAJAA0AgACAETw0BIAEgAP0AAAAiBiAGIAf9KCAGIAj9Jv1OIAn9Tv1Q/QsAACAAQRBqIQAgAUEQaiEBDAALCwJAA0AgACADTw0BIAEgAC0AACIFIAVBwQBrQRpJQQV0cjoAACAAQQFqIQAgAUEBaiEBDAALCwv2AQIEfwh7IAAhBUEg/Q8hB0EJ/Q8hCEEK/Q8hCUH/AP0PIQpBwgH9DyELQdgB/Q8hDEHiAf0PIQ0gACABaiECIAAgAUFwcWohAwJAA0AgACADTw0BIAD9AAAAIQYgBiAH/SYgBiAI/SMgBiAJ/SP9UP1PIAYgCv0j/VAgBiAL/SP9UCAGIAz9I/1QIAYgDf0j/VD9Uw0BIABBEGohAAwACwsCQANAIAAgAk8NASAALQAAIQQgBEEgSSAEQQlHcSAEQQpHcSAEQf8ARnIgBEHCAUZyIARB2AFGciAEQeIBRnIEQCAAIAVrDwsgAEEBaiEADAALC0F/C/YBAgV/BntBCv0PIQhBD/0PIQn9DAMDCwMDAwMDEwICAwMDAwchCv0MAQIAAAAAAAQAAAAACBAIACELIAAgAWohAiAAIAFBcHFqIQMCQANAIAAgA08NASAA/QAAACEHIAQgByAI/SP9ZGlqIQQgDCAKIAcgCf1O/Q4gCyAHQQT9bf0O/U79UCEMIABBEGohAAwACwsgDP1TIQYCQANAIAAgAk8NASAALQAAIgVBCkYgBGohBCAGIAVBIEkgBUEJR3EgBUEKR3EgBUH/AEZyIAVBwgFGciAFQdgBRnIgBUHiAUZyciEGIABBAWohAAwACwsgBiQAIAQL';

const PAGE = 65536;

// The few WebAssembly names used here (the Node 20 typings do not declare the global).
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface Simd {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  count(at: number, length: number): number;
  lower(from: number, to: number, length: number): void;
  suspect(at: number, length: number): number;
  tally(at: number, length: number): number;
  untidy: { value: number };
}

let simd: Simd | null | undefined;
/** End of the scan buffer in the WebAssembly memory. */
let scanEnd = 0;

function load(): Simd | null {
  if (simd !== undefined) return simd;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(MODULE, 'base64')));
    simd = instance.exports as unknown as Simd;
  } catch {
    simd = null;
  }
  return simd;
}

function grow(c: Simd, bytes: number): void {
  const missing = Math.ceil(bytes / PAGE) - c.memory.buffer.byteLength / PAGE;
  if (missing > 0) c.memory.grow(missing);
}

/**
 * The buffer that file reads should land in: at least `size` bytes, in the WebAssembly memory
 * when possible, keeping the bytes of the previous scan buffer. There is one such buffer per
 * process: a new call returns a view of the same memory, so only one reader may use it at a time.
 */
export function scanBuffer(size: number): Buffer {
  const c = load();
  if (!c) return Buffer.allocUnsafe(size);
  // Room for the lower-cased copy too, so that making one never moves the scan buffer.
  grow(c, Math.ceil(size / 16) * 16 * 2);
  scanEnd = size;
  return Buffer.from(c.memory.buffer, 0, size);
}

/** Grows a buffer returned by `scanBuffer`, keeping its first `keep` bytes. */
export function growScanBuffer(buf: Buffer, size: number, keep: number): Buffer {
  const c = load();
  if (c && buf.buffer === c.memory.buffer) return scanBuffer(size);
  const bigger = Buffer.allocUnsafe(size);
  buf.copy(bigger, 0, 0, keep);
  return bigger;
}

/** Newlines in `buf[from, to)`. */
export function countNewlines(buf: Buffer, from: number, to: number): number {
  if (to <= from) return 0;
  const c = simd ?? load();
  if (c && buf.buffer === c.memory.buffer) return c.count(buf.byteOffset + from, to - from);
  let n = 0;
  for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Newlines in `buf`, and whether it may hold something `cleanLine` changes (when false, it
 * surely does not; when true, `needsCleaning` says for sure). One pass over the bytes.
 */
export function tallyNewlines(buf: Buffer): { newlines: number; maybeUntidy: boolean } {
  const c = simd ?? load();
  if (c && buf.buffer === c.memory.buffer) {
    const newlines = c.tally(buf.byteOffset, buf.length);
    return { newlines, maybeUntidy: c.untidy.value !== 0 };
  }
  return { newlines: countNewlines(buf, 0, buf.length), maybeUntidy: true };
}

/**
 * A copy of `buf` (a view of the scan buffer) with ASCII letters in lower case, placed in the
 * WebAssembly memory just after the scan buffer. Valid until the next call.
 */
export function lowerCopy(buf: Buffer): Buffer {
  const c = simd ?? load();
  const to = Math.ceil(scanEnd / 16) * 16;
  if (!c || buf.buffer !== c.memory.buffer || to + buf.length > c.memory.buffer.byteLength) {
    const out = Buffer.allocUnsafe(buf.length);
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i] as number;
      out[i] = b - 65 < 26 && b >= 65 ? b | 32 : b;
    }
    return out;
  }
  c.lower(buf.byteOffset, to, buf.length);
  return Buffer.from(c.memory.buffer, to, buf.length);
}

/**
 * True when the bytes hold anything `cleanLine` would change in a line: an escape sequence, a
 * `\r`, another control character (not tab), or a C1 control or direction mark.
 */
export function needsCleaning(buf: Buffer): boolean {
  const c = simd ?? load();
  const wasm = c !== null && buf.buffer === c.memory.buffer;
  for (let at = 0; at < buf.length; ) {
    let k = -1;
    if (wasm) {
      const found = (c as Simd).suspect(buf.byteOffset + at, buf.length - at);
      if (found !== -1) k = at + found;
    } else {
      for (let i = at; i < buf.length; i++)
        if (maybeUnsafe(buf[i] as number)) {
          k = i;
          break;
        }
    }
    if (k === -1) return false;
    if (isUnsafeAt(buf, k)) return true;
    at = k + 1;
  }
  return false;
}

function maybeUnsafe(b: number): boolean {
  return (b < 32 && b !== 9 && b !== 10) || b === 127 || b === 0xc2 || b === 0xd8 || b === 0xe2;
}

/** Whether the byte at `k` (one `suspect` found) starts a character `cleanLine` changes. */
function isUnsafeAt(buf: Buffer, k: number): boolean {
  const b = buf[k] as number;
  if (b < 0x80) return true;
  const c = buf[k + 1] ?? 0;
  const d = buf[k + 2] ?? 0;
  if (b === 0xc2) return c >= 0x80 && c <= 0x9f; // U+0080-U+009F
  if (b === 0xd8) return c === 0x9c; // U+061C
  // U+200E, U+200F, U+202A-U+202E, U+2066-U+2069
  return (
    (c === 0x80 && (d === 0x8e || d === 0x8f || (d >= 0xaa && d <= 0xae))) ||
    (c === 0x81 && d >= 0xa6 && d <= 0xa9)
  );
}
