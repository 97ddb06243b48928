import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { summarize } from '../../src/summary/summarize.js';

/** Rows of a data load, with a few errors of one kind in the middle. */
function load(errors: number[], rows = 12000): string {
  const out: string[] = [];
  for (let i = 1; i <= rows; i++) {
    out.push(`    (${i}, N'Track ${i * 7}', ${i % 300}, 1, 3, N'Composer ${i % 97}', ${200000 + i}, 0.99),`);
    if (errors.includes(i))
      out.push(`psql:load.sql:${i + 9}: ERROR:  value too long for type character varying(120)`);
  }
  out.push('COMMIT');
  return `${out.join('\n')}\n`;
}

describe('a few errors of one template', () => {
  it('are all shown, each at its line, not one of them with a count', () => {
    const out = summarize(load([3000, 6000]), { exitCode: 1 });
    expect(out).toContain('psql:load.sql:3009: ERROR:');
    expect(out).toContain('psql:load.sql:6009: ERROR:');
  });

  it('hundreds are one exemplar and a count', () => {
    const errors = Array.from({ length: 300 }, (_, i) => 2000 + i * 20);
    const c = new Collector({ keepBytes: 65536 });
    c.push(Buffer.from(load(errors)));
    const lines = c.end().candidates.filter((k) => k.text.includes('value too long'));
    expect(lines.map((k) => k.count)).toEqual([300]);
  });
});
