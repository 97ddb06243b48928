import { describe, expect, it } from 'vitest';
import { liftFirsts } from '../../src/summary/firsts.js';
import type { Pending } from '../../src/summary/spend.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

const unit = (
  line: number,
  score: number,
  key = 'k',
  salient = true,
  bonus = 0,
  main = 'error: at line 1',
): Pending => ({
  entries: [{ line, text: `line ${line}`, role: 'salient' }],
  score: score + bonus,
  line,
  key,
  bonus,
  main,
  decay: 0.5,
  ...(salient ? { salient } : {}),
});

describe('liftFirsts', () => {
  it('gives the first member of a salient template the worth of its best', () => {
    const units = [unit(10, 5), unit(50, 5.5), unit(99, 8)];
    liftFirsts(units);
    expect(units.map((u) => u.score)).toEqual([8, 5.5, 8]);
  });

  it('leaves plain lines, lone members, big templates and the bonus of news alone', () => {
    const plain = [unit(10, 5, 'p', false), unit(99, 8, 'p', false)];
    const lone = [unit(10, 5, 'l')];
    const big = Array.from({ length: 21 }, (_, i) => unit(i + 1, i === 20 ? 9 : 1, 'b'));
    // A later member worth more only by being new lends its worth, not its bonus.
    const news = [unit(10, 5, 'n'), unit(99, 6, 'n', true, 20)];
    // Warnings are no cascade: the last of alike warnings stands for them as well.
    const warnings = [unit(10, 5, 'w', true, 0, 'warning: x'), unit(99, 8, 'w', true, 0, 'warning: x')];
    liftFirsts(warnings);
    expect(warnings.map((u) => u.score)).toEqual([5, 8]);
    // Another failure the miner took for a member says something else: it lends nothing.
    const other = [
      unit(10, 5, 'o', true, 0, 'x.py:294: AssertionError'),
      unit(99, 8, 'o', true, 0, 'y.py:644: TypeError'),
    ];
    liftFirsts([...plain, ...lone, ...big, ...news, ...other]);
    expect(other.map((u) => u.score)).toEqual([5, 8]);
    expect(plain.map((u) => u.score)).toEqual([5, 8]);
    expect(lone[0]?.score).toBe(5);
    expect(big[0]?.score).toBe(1);
    expect(news.map((u) => u.score)).toEqual([6, 26]);
  });
});

describe('summary of a log whose one error recurs until its end', () => {
  it('takes the first of the alike errors, the one to fix, as their exemplar', () => {
    const lines: string[] = [];
    const at = new Set([1200, 1400, 1600, 1800, 2000, 2200, 2390]);
    const clause = (i: number) => Array.from({ length: 30 }, (_, k) => `c${k} = ${k * i}`).join(' AND ');
    for (let i = 1; i <= 2400; i++) {
      const t = `2026-11-26 09:${String(10 + (Math.floor(i / 60) % 50)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} UTC [${20000 + (i % 97)}]`;
      if (at.has(i)) {
        lines.push(`${t} app@db ERROR:  new row for relation "branches" violates check constraint "floor"`);
        lines.push(`${t} app@db DETAIL:  Failing row contains (1, -${100000 + i}, null).`);
        lines.push(`${t} app@db STATEMENT:  UPDATE branches SET balance = -${i} WHERE ${clause(i)};`);
        i += 2;
      } else
        lines.push(`${t} app@db LOG:  statement: UPDATE accounts SET balance = ${i % 500} WHERE aid = ${i};`);
    }
    const out = summarize(lines.join('\n'), facts);
    // Before, the last (near the end, where position is worth most) was the exemplar, with
    // `[+6 similar, first 1200]`.
    expect(out).toContain(`1200: ${lines[1199]} [+6 similar, last 2390]`);
  });
});
