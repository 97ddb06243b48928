import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLookaround, requiredLiteral } from '../../src/read/required-literal.js';

describe('requiredLiteral', () => {
  it.each([
    ['ERROR', '', 'ERROR'],
    ['TS2\\d{3}', '', 'TS2'],
    ['connection (reset|refused)', '', 'connection '],
    ['error|warning', '', ''],
    ['colou?r mismatch', '', 'r mismatch'],
    ['ab+c', '', 'ab'],
    ['ab*cdef', '', 'cdef'],
    ['x{2}yz', '', 'yz'],
    ['a{0,3}bcd', '', 'bcd'],
    ['^\\s+at .*\\(src/', '', '(src/'],
    ['file\\.ts:\\d+', '', 'file.ts:'],
    ['\\x41BCD', '', 'BCD'],
    ['\\u0041BCD', '', 'BCD'],
    ['\\u{41}BCD', 'u', 'BCD'],
    ['(?<n>ab)\\k<n>cd', '', 'cd'],
    ['(a)\\1bcd', '', 'bcd'],
    ['[abc]def[g]', '', 'def'],
    ['[\\]a]xyz', '', 'xyz'],
    ['[^]]xyz', '', ']xyz'],
    ['a.b.c', '', 'a'],
    ['TIMEOUT', 'i', 'timeout'],
    ['TS2\\d{3}', 'i', 'ts2'],
    ['café bar', 'i', ' bar'],
    ['skip me', 'iu', 'ip me'],
    ['caf\\u00e9', '', 'caf'],
    ['😀 smile', '', '😀 smile'],
    ['a{', '', 'a{'],
  ])('/%s/%s → %j', (source, flags, expected) => {
    expect(requiredLiteral(source, flags)).toBe(expected);
  });

  it('is in every match of random patterns', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'ab',
      'A',
      '.',
      '\\d',
      '[ab]',
      '(a|b)',
      'c?',
      'b+',
      'x{2}',
      '\\.',
      ' ',
      'é',
    );
    fc.assert(
      fc.property(
        fc.array(atom, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', 'i'),
        fc.array(
          fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 'x', '1', '.', ' ', 'c', 'é', 'É') }),
          { maxLength: 30 },
        ),
        (atoms, flags, texts) => {
          const source = atoms.join('');
          const re = new RegExp(source, flags);
          const literal = requiredLiteral(source, flags);
          for (const text of texts) {
            if (re.test(text)) expect((flags ? text.toLowerCase() : text).includes(literal)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('hasLookaround', () => {
  it.each([
    ['a(?=b)', true],
    ['a(?!b)', true],
    ['(?<=a)b', true],
    ['(?<!a)b', true],
    ['(?<name>a)', false],
    ['\\(?=b', false],
    ['[(?=]b', false],
    ['plain', false],
  ])('%s → %s', (source, expected) => {
    expect(hasLookaround(source)).toBe(expected);
  });
});
