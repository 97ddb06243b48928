import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/format.js';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [48213, '48,213'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    [1.5, '1.5'],
  ])('%d → %s', (n, expected) => {
    expect(formatCount(n)).toBe(expected);
  });

  it('writes whole numbers as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });
});
