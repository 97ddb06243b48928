import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

const longPath = `/tmp/${'very-long-run-directory-name-'.repeat(8)}/tool_results/seq_b8c1129c.txt`;
const facts = { id: 'seq_b8c1129c', path: longPath, exitCode: 0, durationMs: 12 };
const seq = (n: number) => `${Array.from({ length: n }, (_, i) => i + 1).join('\n')}\n`;

describe('the budget', () => {
  it.each([200, 250, 400])(
    'holds at %i characters with a long path, header included, and shows output',
    (budget) => {
      const out = summarize(seq(5000), facts, { budget });
      expect(out.length).toBeLessThanOrEqual(budget);
      expect(out).toMatch(/^\[ctxwrap seq_b8c1129c\] exit 0 · 5,000 lines/);
      expect(out).toContain('\n5000\n');
    },
  );

  it('says "1 line", not "1 lines"', () => {
    const one = summarize('x'.repeat(3000), facts, { budget: 400 });
    expect(one).toContain('· 1 line ·');
    const verbatim = summarize('only\n', { ...facts, exitCode: 2 });
    expect(verbatim).toContain('exit 2 · 1 line ·');
  });
});
