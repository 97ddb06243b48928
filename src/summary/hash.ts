/** FNV-1a over UTF-16 code units: a small, stable 32-bit hash. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A line's two hashes: of its exact bytes, and of its bytes with each run of digits as one mark. */
export interface LineHashes {
  exact: number;
  /** Lines that differ only in numbers (line-number drift) share it; a lone `0` stays itself. */
  digits: number;
}

/**
 * Hashes one line of raw bytes, `buf[start..end)`, without decoding it: the exact bytes, and the
 * bytes with every run of digits but a lone 0 replaced by one mark. A final `\r` is left out.
 */
export function hashLine(buf: Uint8Array, start: number, end: number): LineHashes {
  let stop = end;
  if (stop > start && buf[stop - 1] === 13) stop--;
  let exact = 0x811c9dc5;
  let digits = 0x811c9dc5;
  let run = 0;
  let lastDigit = 0;
  for (let i = start; i < stop; i++) {
    const c = buf[i] as number;
    exact = Math.imul(exact ^ c, 0x01000193);
    if (c >= 48 && c <= 57) {
      run++;
      lastDigit = c;
      continue;
    }
    if (run > 0) {
      digits = Math.imul(digits ^ (run === 1 && lastDigit === 48 ? 48 : 35), 0x01000193);
      run = 0;
    }
    digits = Math.imul(digits ^ c, 0x01000193);
  }
  if (run > 0) digits = Math.imul(digits ^ (run === 1 && lastDigit === 48 ? 48 : 35), 0x01000193);
  return { exact: exact >>> 0, digits: digits >>> 0 };
}
