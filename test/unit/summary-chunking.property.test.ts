import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { buildSummary, type RunFacts, renderSummary } from '../../src/summary/render.js';
import { keepBytesFor } from '../../src/summary/summarize.js';

const facts: RunFacts = { id: 'big_0123abcd', path: '/runs/big.txt', exitCode: 1, durationMs: 1 };

/** A several-MB output of varied lines (warnings, errors, long lines, repeats), from a seed. */
function bigOutput(seed: number, bytes: number): Buffer {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const k = rnd(100);
    const line =
      k < 30
        ? `src/m${rnd(400)}.c:${rnd(900)}:${rnd(40)}: warning: unused variable 'v${rnd(50)}' [-Wunused-variable]`
        : k < 31
          ? `src/m${rnd(400)}.c:${rnd(900)}: error: '${'x'.repeat(rnd(8) + 1)}' undeclared`
          : k < 32
            ? 'y'.repeat(rnd(200_000))
            : k < 40
              ? 'same line'
              : k < 41
                ? `\x1b[31mFAIL\x1b[0m test ${rnd(100)}\r\n`
                : `[${String(i).padStart(7, '0')}] step ${rnd(1000)} ok ${'é'.repeat(rnd(3))}`;
    parts.push(`${line}\n`);
    size += line.length + 1;
  }
  return Buffer.from(parts.join(''));
}

function summaryOf(bytes: Buffer, sizes: number[], previous?: Collector): string {
  const c = new Collector({
    keepBytes: keepBytesFor(2000),
    ...(previous ? { previous: previous.end().fingerprint } : {}),
  });
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length] as number;
    c.push(bytes.subarray(at, at + n));
    at += n;
  }
  return renderSummary(buildSummary(c.end(), { ...facts, previousId: 'prev_00000000' }));
}

describe('the summary of a several-MB output', () => {
  // Larger than every buffer of the collector: the biggest, the first 4 MiB where every line is
  // hashed to compare runs (HASH_ALL_BYTES), is crossed too.
  const bytes = bigOutput(7, 5_000_000);
  const whole = summaryOf(bytes, [bytes.length]);

  it('is the same in any chunking (chunks from 1 byte to 200 KB)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 200_000 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (sizes) => {
          expect(summaryOf(bytes, sizes)).toBe(whole);
        },
      ),
      { numRuns: 8 },
    );
  }, 300_000);

  it('compares with a previous run the same way in any chunking', () => {
    const before = bigOutput(8, 5_000_000);
    const prev = () => {
      const p = new Collector({ keepBytes: keepBytesFor(2000) });
      p.push(before);
      return p;
    };
    const once = summaryOf(bytes, [bytes.length], prev());
    expect(once).toContain('[ctxwrap: vs prev_00000000');
    for (const sizes of [[1000], [65536, 17], [4093, 250_000, 3]])
      expect(summaryOf(bytes, sizes, prev())).toBe(once);
  }, 300_000);
});

describe('a line longer than the collector holds', () => {
  // Lines over keepBytes are kept as their start and end; they must be so whether they come in
  // one push (a whole buffer: summarize, MCP, a 1 MB read) or across many (a slow writer).
  const keepBytes = keepBytesFor(2000);
  const bytes = Buffer.concat([
    Buffer.from('first line\nsrc/a.c:1:1: error: before the long line\n'),
    Buffer.from(`error: ${'y'.repeat(3 * keepBytes)} -----BEGIN RSA PRIVATE KEY-----\n`),
    Buffer.from('    at main (src/a.c:9)\nFAIL test after the long line\n'),
    Buffer.from(`${'z'.repeat(keepBytes + 1)}\nlast line\n`),
  ]);
  const collect = (sizes: number[]) => {
    const c = new Collector({ keepBytes });
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const n = sizes[i % sizes.length] as number;
      c.push(bytes.subarray(at, at + n));
      at += n;
    }
    return c.end();
  };
  const whole = collect([bytes.length]);

  it('is kept as a long line, and everything else alike, in any chunking', () => {
    expect([...whole.longLines.keys()]).toEqual([3, 6]);
    expect(whole.keyRanges).toEqual([]);
    for (const sizes of [[1], [4096], [keepBytes], [keepBytes + 1, 7], [100_000, 3]])
      expect(collect(sizes)).toEqual(whole);
  }, 60_000);
});
