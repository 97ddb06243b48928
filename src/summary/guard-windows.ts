/**
 * Which three bytes of a guard literal the scanner's table is keyed on (see guard-scan.ts). Any
 * three consecutive bytes of a literal are sound: wherever the literal is, they are too, and the
 * scanner then checks the whole literal. But a key that the output is full of sends the scanner
 * to that check at every occurrence: `compiled` keyed on `com` is checked at each `compiling`
 * and `command`. So each literal is keyed on its three bytes that are rarest in a sample of the
 * output (the piece scanned when the table is made), weighed with how rare they are in English
 * text: the cost of a key is its count in the sample plus one, times its letters' frequencies
 * (below). The choice changes how fast the scan is, never what it finds.
 */

/** Classes of 5 bits (guard-scan.ts): a key of three is 15 bits. */
export const BITS = 5;
export const KEY_MASK = (1 << (3 * BITS)) - 1;
export const NL_CLASS = 1;
export const DIGIT_CLASS = 2;
export const LETTER_CLASS = 3; // a-z: 3..28
export const SPACE_CLASS = 29;
export const MARK_CLASS = 30; // other ASCII bytes of the literals
export const HIGH_CLASS = 31; // bytes >= 0x80 of the literals

/** Letters a-z per 1,000 letters of English text. */
const LETTER_PER_MILLE = [
  82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1,
];

/** How common a class is in tool output, per 1,000 bytes (a rough prior, weighed with the sample). */
function commonness(c: number): number {
  if (c >= LETTER_CLASS && c < LETTER_CLASS + 26) return LETTER_PER_MILLE[c - LETTER_CLASS] as number;
  // Digits come in runs (numbers, times, sizes): `123` is far more common than its letters'.
  if (c === DIGIT_CLASS) return 250;
  if (c === SPACE_CLASS) return 150;
  if (c === MARK_CLASS) return 30;
  if (c === NL_CLASS) return 20;
  return 1;
}

/** How often each key (three classes) ends at a byte of `sample`, classed by `cls`. */
export function keyCounts(sample: Uint8Array, cls: Uint8Array): Uint32Array {
  const counts = new Uint32Array(KEY_MASK + 1);
  let k = NL_CLASS;
  for (let i = 0; i < sample.length; i++) {
    k = ((k << BITS) | (cls[sample[i] as number] as number)) & KEY_MASK;
    counts[k] = (counts[k] as number) + 1;
  }
  return counts;
}

/**
 * The start, in `classes` (a literal's classes, NL_CLASS first when it is anchored), of the three
 * to key it on: the rarest in `counts` (the sample's) weighed with English text, else the first.
 */
export function rarestWindow(classes: readonly number[], counts: Uint32Array | undefined): number {
  let best = 0;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let p = 0; p + 3 <= classes.length; p++) {
    const [a, b, c] = classes.slice(p, p + 3) as [number, number, number];
    const seen = counts ? (counts[(((a << BITS) | b) << BITS) | c] as number) : 0;
    const cost = (seen + 1) * commonness(a) * commonness(b) * commonness(c);
    if (cost < bestCost) {
      best = p;
      bestCost = cost;
    }
  }
  return best;
}
