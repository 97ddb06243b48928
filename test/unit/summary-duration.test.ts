import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

/** Lines of random words (a small xorshift PRNG: the same lines every run). */
function randomWords(lines: number, seed: number): string {
  const words =
    'alpha beta gamma delta error warn cache store index parse render token value failed ok'.split(' ');
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % 1_000_003;
  };
  return Array.from({ length: lines }, () =>
    Array.from({ length: 3 + (next() % 9) }, () => `${words[next() % words.length]}${next() % 50}`).join(' '),
  ).join('\n');
}

describe("the summary's body", () => {
  it('does not depend on how long the run took', () => {
    for (const [lines, seed] of [
      [400, 7],
      [3000, 11],
      [20000, 13],
    ] as const) {
      const text = randomWords(lines, seed);
      const body = (durationMs: number) =>
        summarize(text, { id: 'sh_0123abcd', path: '/runs/sh_0123abcd.txt', exitCode: 1, durationMs })
          .split('\n')
          .slice(1)
          .join('\n');
      const first = body(5);
      for (const ms of [977, 1200, 4600, 61_000, 3_700_000]) expect(body(ms)).toBe(first);
    }
  });
});
