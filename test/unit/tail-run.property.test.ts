import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import type { LineRun } from '../../src/summary/line-run.js';
import { buildSummary, type RunFacts, renderSummary } from '../../src/summary/render.js';

const KEEP = 4096;
const facts: RunFacts = { id: 'run_0123abcd', path: '/runs/run.txt', exitCode: 1, durationMs: 1 };

const LINES = ['', 'ab', 'x'.repeat(50), 'y'.repeat(3000), 'z'.repeat(KEEP + 1), 'error: b'];
/** A few copies of a line, or copies up to `most` bytes. */
const run = (most: number) =>
  fc
    .tuple(
      fc.constantFrom(...LINES),
      fc.oneof(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: most }).map((b) => -b),
      ),
    )
    .map(([line, n]) => `${line}\n`.repeat(n > 0 ? n : Math.ceil(-n / (line.length + 1))));

/**
 * Runs of lines, then one run of up to 200 kB (longer than every buffer the collector holds, or
 * not), then a few short ones: the tail often starts in the long run.
 */
const output = fc
  .tuple(
    fc.array(run(40_000), { maxLength: 4 }),
    run(200_000),
    fc.array(run(3_000), { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([before, long, after, closed]) => {
    const text = [...before, long, ...after].join('');
    return Buffer.from(closed ? text : text.slice(0, -1));
  });

/** Sizes of the chunks, cycled: tiny ones, and larger than the collector's pieces. */
const chunking = fc.array(
  fc.oneof(fc.integer({ min: 16, max: 64 }), fc.integer({ min: 1000, max: 200_000 })),
  {
    minLength: 1,
    maxLength: 6,
  },
);

function collect(bytes: Buffer, sizes: number[]) {
  const c = new Collector({ keepBytes: KEEP });
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length] as number;
    c.push(bytes.subarray(at, at + n));
    at += n;
  }
  return c.end();
}

/**
 * What the runs should be, from the lines: the run the tail's first line is in, when it began
 * before it, then the run the output ends with (newline-ended copies of a line no longer than
 * KEEP, two or more).
 */
function expected(bytes: Buffer): LineRun[] {
  const text = bytes.toString('latin1');
  const closed = text.endsWith('\n');
  const lines = (closed ? text.slice(0, -1) : text).split('\n');
  const n = lines.length;
  const copy = (i: number, of: number) =>
    i >= 1 && (i < n || closed) && lines[i - 1] === lines[of - 1] && (lines[of - 1] as string).length <= KEEP;
  let start = Math.max(0, bytes.length - KEEP);
  if (start > 0 && bytes[start - 1] !== 10) start = bytes.indexOf(10, start) + 1;
  const out: LineRun[] = [];
  if (start > 0 && start < bytes.length && bytes.indexOf(10, start) !== -1) {
    const first = text.slice(0, start).split('\n').length;
    let from = first;
    while (copy(from - 1, first)) from--;
    let to = first;
    while (copy(to + 1, first)) to++;
    if (from < first) out.push({ from, to });
  }
  if (closed) {
    let from = n;
    while (copy(from - 1, n) && copy(n, n)) from--;
    if (from < n && out.at(-1)?.from !== from) out.push({ from, to: n });
  }
  return out;
}

describe('the runs of identical lines the tail starts in and the output ends with', () => {
  it('are those of the lines, however the bytes were split', () => {
    fc.assert(
      fc.property(output, chunking, (bytes, sizes) => {
        const want = expected(bytes);
        const got = collect(bytes, sizes);
        expect(got.endRuns ?? []).toEqual(want);
        const whole = collect(bytes, [bytes.length]);
        expect(renderSummary(buildSummary(got, facts))).toBe(renderSummary(buildSummary(whole, facts)));
      }),
      { numRuns: 25 },
    );
  });
});
