/**
 * The byte loops of `read` over 1 MiB blocks, in plain TypeScript: newlines counted with the
 * native byte search (`indexOf`), an ASCII-lower-cased copy for case-insensitive literals, and
 * the tests of whether `cleanLine` would change anything in a block, four bytes at a time.
 */

/** Newlines in `buf[from, to)`. */
export function countNewlines(buf: Buffer, from = 0, to = buf.length): number {
  if (to <= from) return 0;
  const view = from === 0 && to === buf.length ? buf : buf.subarray(from, to);
  let n = 0;
  for (let i = view.indexOf(10); i !== -1; i = view.indexOf(10, i + 1)) n++;
  return n;
}

let lowered = Buffer.alloc(0);

/** A copy of `buf` with ASCII letters in lower case. Valid until the next call. */
export function lowerCopy(buf: Buffer): Buffer {
  const n = buf.length;
  if (lowered.length < n) lowered = Buffer.alloc(Math.max(n, lowered.length * 2));
  const out = lowered;
  let i = 0;
  if ((buf.byteOffset & 3) === 0 && (out.byteOffset & 3) === 0) {
    const src = new Uint32Array(buf.buffer, buf.byteOffset, n >>> 2);
    const dst = new Uint32Array(out.buffer, out.byteOffset, n >>> 2);
    for (let k = 0; k < src.length; k++) {
      const x = src[k] as number;
      const t = x & 0x7f7f7f7f;
      // High bit of each byte that is A-Z: at least 0x41, below 0x5b, high bit clear.
      const upper = (t + 0x3f3f3f3f) & ~(t + 0x25252525) & ~x & 0x80808080;
      dst[k] = x | (upper >>> 2);
    }
    i = src.length * 4;
  }
  for (; i < n; i++) {
    const b = buf[i] as number;
    out[i] = b >= 65 && b <= 90 ? b | 32 : b;
  }
  return out.subarray(0, n);
}

/** Bytes that may start something `cleanLine` changes: controls but tab and newline, DEL, and the
 * lead bytes of C1 controls (0xC2) and of direction marks (0xD8, 0xE2). */
const SUSPECT = new Uint8Array(256);
for (let b = 0; b < 32; b++) if (b !== 9 && b !== 10) SUSPECT[b] = 1;
for (const b of [0x7f, 0xc2, 0xd8, 0xe2]) SUSPECT[b] = 1;

/**
 * True when the bytes hold anything `cleanLine` would change in a line: an escape sequence, a
 * `\r`, another control character (not tab), or a C1 control or direction mark.
 */
export function needsCleaning(buf: Buffer, from = 0, to = buf.length): boolean {
  let i = from;
  for (; i < to && ((buf.byteOffset + i) & 3) !== 0; i++)
    if (SUSPECT[buf[i] as number] && unsafeAt(buf, i)) return true;
  if (to - i >= 4) {
    const words = new Uint32Array(buf.buffer, buf.byteOffset + i, (to - i) >>> 2);
    for (let k = 0; k < words.length; k++) {
      const x = words[k] as number;
      const t = x & 0x7f7f7f7f;
      // Any byte below 0x20, DEL, or with the high bit set: then look at the four.
      if ((~((t + 0x60606060) | x) | (t + 0x01010101) | x) & 0x80808080) {
        for (let at = i + 4 * k, j = at + 4; at < j; at++)
          if (SUSPECT[buf[at] as number] && unsafeAt(buf, at)) return true;
      }
    }
    i += words.length * 4;
  }
  for (; i < to; i++) if (SUSPECT[buf[i] as number] && unsafeAt(buf, i)) return true;
  return false;
}

/** Whether the suspect byte at `k` starts a character `cleanLine` changes. */
function unsafeAt(buf: Buffer, k: number): boolean {
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

const C1_CSI = Buffer.from([0xc2, 0x9b]);
/** Characters of the visible forms `^X` and `<U+XXXX>` that cleaning writes for a control. */
const VISIBLE_PARTS = /[\^<>+?]/;

/**
 * False when a byte search for `literal` in the raw bytes finds every line whose cleaned text
 * holds it (true when it might not: the block must then be searched in cleaned form). Cleaning
 * removes escape sequences, which can join the pieces of a word, and writes a control as `^X`
 * or `<U+XXXX>`, which can make the first or last characters of a literal. Each is looked for
 * only where the literal could come of it, mostly with one native byte search.
 */
export function mayHideLiteral(buf: Buffer, literal: Buffer, foldCase: boolean): boolean {
  if (buf.indexOf(0x1b) !== -1 || buf.indexOf(C1_CSI) !== -1) return true;
  const text = literal.toString('latin1');
  if (VISIBLE_PARTS.test(text)) return needsCleaning(buf);
  const upper = (b: number) => (foldCase && b >= 97 && b <= 122 ? b - 32 : b);
  const first = upper(literal[0] as number);
  const last = upper(literal[literal.length - 1] as number);
  // `^E` of 0x05 ends in E: a literal that starts with E may begin inside it.
  if (first >= 0x40 && first <= 0x5f && buf.indexOf(first - 0x40) !== -1) return true;
  const hexOrU = (b: number) => (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || b === 85;
  if (
    (hexOrU(first) || hexOrU(last)) &&
    (buf.indexOf(0xc2) !== -1 || buf.indexOf(0xd8) !== -1 || buf.indexOf(0xe2) !== -1)
  )
    return needsCleaning(buf);
  return false;
}
