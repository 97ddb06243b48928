import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { summarize } from '../../src/summary/summarize.js';

/** A progress line redrawn with carriage returns: one line of `n` updates, then what it ended with. */
const progress = (from: number, n: number, last: string) =>
  `${Array.from({ length: n }, (_, i) => `\rRunning test id ${from + i}         `).join('')}${last}`;

const output = [
  'test run starting',
  ...Array.from({ length: 20 }, (_, i) => `  setting ${i} unset`),
  progress(1, 3000, 'Test 1532.12 ran without errors but failed check that x equals y:'),
  '> x = x %like% "A" ',
  "First 1 different of 1 (4 total, type 'logical'): ",
  'x[4] ',
  '  NA ',
  '> y = c(TRUE, FALSE, FALSE, FALSE) ',
  'FALSE ',
  "'is.NA' value mismatch: 0 in current 1 in target",
  progress(3001, 3000, ''),
  'Error in run(progress = TRUE) : ',
  '  1 error out of 18000. Search for test number 1532.12.',
  'Execution halted',
  '',
].join('\n');

describe('the lines after a long line', () => {
  it('are held: a failure printed after a progress line of carriage returns is shown with its block', () => {
    const out = summarize(output, { exitCode: 1 });
    expect(out).toContain('failed check that x equals y:');
    expect(out).toContain('> x = x %like% "A"');
    expect(out).toContain("'is.NA' value mismatch: 0 in current 1 in target");
  });

  it('are the same however the output is split into chunks', () => {
    const bytes = Buffer.from(output);
    const whole = new Collector({ keepBytes: 65536 });
    whole.push(bytes);
    const expected = [...whole.end().longLines.values()];
    for (const size of [13, 4096, 65537]) {
      const c = new Collector({ keepBytes: 65536 });
      for (let at = 0; at < bytes.length; at += size) c.push(bytes.subarray(at, at + size));
      expect([...c.end().longLines.values()]).toEqual(expected);
    }
    expect(expected[0]?.after?.map((a) => a.line)).toEqual([23, 24, 25, 26, 27, 28, 29]);
  });

  it('never show a private key printed after a long line', () => {
    const body = Array.from(
      { length: 6 },
      (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${i}kcwggSjAgEAAoIBAQC7`,
    );
    const text = [
      progress(1, 3000, 'done'),
      '-----BEGIN PRIVATE KEY-----',
      ...body,
      '-----END PRIVATE KEY-----',
      progress(3001, 3000, 'done'),
      'Execution halted',
      '',
    ].join('\n');
    const out = summarize(text, { exitCode: 1 });
    for (const line of body) expect(out).not.toContain(line.slice(0, 30));
  });
});
