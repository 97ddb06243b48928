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
 *
 * Walked by runs: a stretch without digits goes into both hashes in one loop (two independent
 * chains of multiplies, which the CPU overlaps), a run of digits into the exact hash alone, then
 * its mark into the other. The same values as a byte-at-a-time loop with a test per byte, at about
 * half its time (a branch on every byte's class mispredicted at each digit run's edges).
 *
 * Returns one object, reused by the next call (read it at once): it is called for every line the
 * guard finds, and an object per call kept the young generation busy (gcc warnings: 600,000 lines
 * per 100 MB).
 */
export function hashLine(buf: Uint8Array, start: number, end: number): LineHashes {
  const out = hashes;
  let stop = end;
  if (stop > start && buf[stop - 1] === 13) stop--;
  let exact = 0x811c9dc5;
  let digits = 0x811c9dc5;
  let i = start;
  while (i < stop) {
    let c = buf[i] as number;
    // A stretch without digits: both hashes.
    while ((c - 48) >>> 0 > 9) {
      exact = Math.imul(exact ^ c, 0x01000193);
      digits = Math.imul(digits ^ c, 0x01000193);
      if (++i >= stop) {
        out.exact = exact >>> 0;
        out.digits = digits >>> 0;
        return out;
      }
      c = buf[i] as number;
    }
    // A run of digits: the exact hash, then one mark (a lone 0 stays itself).
    const first = i;
    const lead = c;
    do {
      exact = Math.imul(exact ^ c, 0x01000193);
      if (++i >= stop) break;
      c = buf[i] as number;
    } while (c >= 48 && c <= 57);
    digits = Math.imul(digits ^ (i - first === 1 && lead === 48 ? 48 : 35), 0x01000193);
  }
  out.exact = exact >>> 0;
  out.digits = digits >>> 0;
  return out;
}

const hashes: LineHashes = { exact: 0, digits: 0 };
