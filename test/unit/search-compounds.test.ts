// The compounds of a line found in one native pass (forEachCompound) are those found a character
// at a time (forEachCompoundByChar, the rule as written): on random text of ASCII, joiners,
// commas between digits, letters, digits and marks of other scripts, and astral letters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachCompound, forEachCompoundByChar } from '../../src/search/tokenize.js';

const CHARS = [
  'a',
  'Z',
  'q',
  '0',
  '7',
  ',',
  '.',
  '-',
  '/',
  '\\',
  ':',
  '_',
  '@',
  '#',
  '+',
  '~',
  '$',
  ' ',
  '\t',
  '(',
  ')',
  '"',
  "'",
  '=',
  '!',
  '%',
  '\u2018',
  '\u2019',
  'é',
  'ß',
  'Σ',
  'ж',
  '中',
  '٣',
  '²',
  '\u0301',
  '\u00a0',
  '\u2028',
  '\ud835\udc00',
  '\u{1f600}',
  '\ud800',
];
const compounds = (f: typeof forEachCompound, text: string) => {
  const out: string[] = [];
  f(text, (c) => out.push(c));
  return out;
};

describe('forEachCompound', () => {
  it('finds the compounds the character-at-a-time rule finds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(compounds(forEachCompound, text)).toEqual(compounds(forEachCompoundByChar, text));
      }),
      { numRuns: 3000 },
    );
  });

  it('splits a compiler line as before', () => {
    const line =
      'src/cors/balance.c:709:27: warning: unused variable \u2018Wmissing\u2019 [-Wunused-variable] 1,234,5';
    expect(compounds(forEachCompound, line)).toEqual([
      'src/cors/balance.c:709:27',
      'warning',
      'unused',
      'variable',
      'Wmissing',
      'Wunused-variable',
      '1,234,5',
    ]);
  });
});
