import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { summarize } from '../../src/summary/summarize.js';

const lines = (text: string, n: number) => `${text}\n`.repeat(n);
const Y = 'y'.repeat(40);

describe('a run of identical lines longer than the head (issue 20)', () => {
  it('is told as one repeat', () => {
    const out = summarize(lines(Y, 10_000));
    expect(out).toContain(`${Y}\n[ctxwrap: previous line repeated 9,999 more times]\n`);
    expect(out).not.toContain('omitted');
  });

  it('is told as one repeat between other lines', () => {
    const out = summarize(`start\n${lines(Y, 10_000)}end\nerror: x\n`);
    expect(out).toContain(`start\n${Y}\n[ctxwrap: previous line repeated 9,999 more times]\nend\nerror: x\n`);
  });

  it('ends at the first line that differs, however the bytes were split', () => {
    const bytes = Buffer.from(`${lines('a', 3)}${lines('same line', 10_000)}same line.\n${lines('x', 10)}`);
    const runOf = (size: number) => {
      const c = new Collector({ keepBytes: 65536 });
      for (let at = 0; at < bytes.length; at += size) c.push(bytes.subarray(at, at + size));
      return c.end().run;
    };
    expect(runOf(bytes.length)).toEqual({ from: 4, to: 10_003 });
    for (const size of [7, 4096, 65536, 100_000]) expect(runOf(size)).toEqual({ from: 4, to: 10_003 });
  });

  it('is not followed past the head when the head ends with another line', () => {
    const c = new Collector({ keepBytes: 4096 });
    c.push(Buffer.from(`${lines('a', 10)}${'b'.repeat(5000)}\n${lines('y', 1000)}`));
    expect(c.end().run).toBeUndefined();
  });
});
