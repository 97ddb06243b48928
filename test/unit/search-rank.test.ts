import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/format.js';
import { cutAround, oneLine } from '../../src/search/format.js';
import { PREFIX_WEIGHT, weightOf, withinOneEdit } from '../../src/search/resolve.js';

describe('withinOneEdit', () => {
  it.each([
    ['connection', 'connection', true],
    ['conection', 'connection', true],
    ['connectoin', 'connection', true],
    ['connectiom', 'connection', true],
    ['connections', 'connection', true],
    ['refusal', 'refused', false],
    ['timeout', 'timeouts', true],
    ['abc', 'xyz', false],
    ['e0502', 'e0503', true],
  ])('%s ~ %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });
});

describe('weightOf', () => {
  it.each([
    ['error', 'error', 1],
    ['error', 'errors', (PREFIX_WEIGHT * 5) / 6],
  ])('%s as %s', (q, t, w) => {
    expect(weightOf(q, t)).toBeCloseTo(w);
  });
});

describe('printing helpers', () => {
  it.each([
    ['short lines stay', 'abc', ['b'], 20, 'abc'],
    [
      'a match far in is kept in view',
      `${'x'.repeat(300)}NEEDLE${'y'.repeat(300)}`,
      ['needle'],
      100,
      'NEEDLE',
    ],
  ])('cutAround: %s', (_, text, tokens, cap, shown) => {
    const cut = cutAround(text, tokens, cap);
    expect(cut).toContain(shown);
    expect(cut.length).toBeLessThanOrEqual(cap + 2);
  });

  it.each([
    ['two\nlines', 'two lines'],
    ['\x1b[31mred\x1b[0m', 'red'],
    ['tab\there', 'tab\there'],
  ])('oneLine(%j)', (text, line) => {
    expect(oneLine(text)).toBe(line);
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [1234567, '1,234,567'],
  ])('formatCount(%d)', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
});
