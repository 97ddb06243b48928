import { describe, expect, it } from 'vitest';
import { assemble, type Entry, repeatMarker, SHORT_GAP, type Unit } from '../../src/summary/assemble.js';

const unit = (...entries: Entry[]): Unit => ({
  entries,
  score: 1,
  line: entries[0]?.line ?? 1,
  key: 'k',
  bonus: 0,
});
const out = (line: number, text: string, isNew = false): Entry => ({
  line,
  text,
  role: isNew ? 'new' : 'output',
  ...(isNew ? { isNew } : {}),
});
const texts = (units: Unit[], total: number) => assemble(units, total).map((e) => e.text);

describe('gaps between numbered lines', () => {
  it('are one short line: the numbers on both sides say which lines are left out', () => {
    const shown = [
      unit(out(1, 'start')),
      unit(out(40, 'a')),
      unit(out(42, 'b')),
      unit(out(90, 'c')),
      unit(out(100, 'end')),
    ];
    expect(texts(shown, 100)).toEqual([
      'start',
      '[ctxwrap: 38 lines omitted, 2-39]',
      '40: a',
      SHORT_GAP,
      '42: b',
      SHORT_GAP,
      '90: c',
      '[ctxwrap: 9 lines omitted, 91-99]',
      'end',
    ]);
  });

  it('keep their full marker beside an unnumbered line or another marker', () => {
    const shown = [
      unit(out(10, 'a'), { line: 13, from: 11, text: repeatMarker(3), role: 'meta' }),
      unit(out(20, 'b')),
      unit(out(30, 'c')),
    ];
    expect(texts(shown, 30)).toEqual([
      '[ctxwrap: 9 lines omitted, 1-9]',
      '10: a',
      repeatMarker(3),
      '[ctxwrap: 6 lines omitted, 14-19]',
      '20: b',
      '[ctxwrap: 9 lines omitted, 21-29]',
      'c',
    ]);
  });

  it('are short between the lines of a re-run, all numbered, but at the ends', () => {
    const shown = [unit(out(5, 'a')), unit(out(9, 'b', true)), unit(out(12, 'c'))];
    expect(texts(shown, 20)).toEqual([
      '[ctxwrap: 4 lines omitted, 1-4]',
      '5: a',
      SHORT_GAP,
      '+9: b',
      SHORT_GAP,
      '12: c',
      '[ctxwrap: 8 lines omitted, 13-20]',
    ]);
  });
});
