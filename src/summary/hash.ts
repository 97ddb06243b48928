/** FNV-1a over UTF-16 code units: a small, stable 32-bit hash for line fingerprints. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The form in which two lines are compared across runs: numbers, hex addresses and times are
 * normalised so that `x.c:12: error` and `x.c:14: error` count as the same error.
 */
export function diffKey(line: string): string {
  return line
    .trim()
    .replace(/\b0x[0-9a-f]+\b/gi, '#')
    .replace(/\b[0-9a-f]{8,}\b/gi, '#')
    .replace(/\d+(?:[.,:]\d+)*/g, '#')
    .replace(/\s+/g, ' ');
}
