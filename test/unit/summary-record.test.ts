import { describe, expect, it } from 'vitest';
import { introduced } from '../../src/summary/blocks.js';
import { sameRecord } from '../../src/summary/record.js';
import { summarize } from '../../src/summary/summarize.js';

const at = (lines: string[]) => (n: number) => lines[n - 1];
const P = '2026-11-26 09:26:46.948 UTC [20443] postgres@postgres ';

describe('a log record in several lines', () => {
  it('is the lines after an error with the same time and process', () => {
    const lines = [
      `${P}ERROR:  new row for relation "b" violates check constraint "floor"`,
      `${P}DETAIL:  Failing row contains (1, -100303, null).`,
      `${P}STATEMENT:  UPDATE b SET v = v + -4695 WHERE id = 1;`,
      '2026-11-26 09:26:47.002 UTC [20444] postgres@postgres LOG:  statement: select 1',
    ];
    expect(sameRecord(lines[0] as string, lines[1] as string)).toBe(true);
    expect(sameRecord(lines[0] as string, lines[3] as string)).toBe(false);
    // A one-word tag is no record's prefix.
    expect(sameRecord('[junit] Tests FAILED', '[junit] Testcase: testLs')).toBe(false);
    expect(introduced(at(lines), 1)).toEqual([2, 3]);
  });

  it('comes with an error in the middle of a long log', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++)
      lines.push(
        `2026-11-26 09:26:${String(10 + (i % 40)).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')} UTC [${20000 + i}] postgres@postgres LOG:  statement: UPDATE t SET v = v + ${i} WHERE id = ${i % 7};`,
      );
    lines.splice(
      1500,
      0,
      `${P}ERROR:  new row for relation "b" violates check constraint "floor"`,
      `${P}DETAIL:  Failing row contains (1, -100303, null).`,
    );
    const text = summarize(`${lines.join('\n')}\n`, { exitCode: 1 });
    expect(text).toContain('DETAIL:  Failing row contains (1, -100303, null).');
  });
});
