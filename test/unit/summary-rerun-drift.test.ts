import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };
const fingerprintOf = (text: string) => {
  const c = new Collector({});
  c.push(Buffer.from(text));
  return c.end().fingerprint;
};
const marked = (out: string) => out.split('\n').filter((l) => /^\+\d+: /.test(l));
/** Lines the same in both runs, enough that the output is summarised. */
const FILLER = Array.from(
  { length: 300 },
  (_, i) => `loading module ${'abcdefghij'[i % 10]}${'klmnopqrst'[Math.floor(i / 10) % 10]} from the cache`,
);

describe('a re-run whose new line shares its form with lines that drifted', () => {
  it('marks the first of a place: the lines after a change drift, the new finding is at the change', () => {
    const report = (places: number[]) =>
      [
        ...FILLER,
        ...places.map(
          (n) => `src/parse.ts:${n}:7 - error TS2345: Argument of type 'string' is not assignable.`,
        ),
        `Found ${places.length} errors.`,
      ].join('\n');
    const previous = fingerprintOf(report([97, 131, 173]));
    const out = summarize(report([77, 96, 130, 172]), { ...facts, previousId: 'tsc_00000001' }, { previous });
    expect(out).toContain(
      "+301: src/parse.ts:77:7 - error TS2345: Argument of type 'string' is not assignable.",
    );
    // The findings after it drifted: no news.
    expect(out).toContain('\n302: src/parse.ts:96:7');
    expect(out).toContain('\n303: src/parse.ts:130:7');
  });

  it('marks the last of a line with no place: a log appends (its clock changes on every run)', () => {
    const log = (n: number, second: number) =>
      [
        ...FILLER,
        ...Array.from({ length: n }, (_, i) => `12:00:${String(second + i).padStart(2, '0')} GET /items 200`),
        'server closed',
      ].join('\n');
    const previous = fingerprintOf(log(3, 10));
    const out = summarize(log(4, 30), { ...facts, exitCode: 0, previousId: 'srv_00000001' }, { previous });
    expect(marked(out)).toEqual(['+304: 12:00:33 GET /items 200']);
  });
});
