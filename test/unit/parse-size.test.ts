import { describe, expect, it } from 'vitest';
import { parseSize } from '../../src/parse-size.js';

describe('parseSize', () => {
  it.each([
    ['0', 0],
    ['1000', 1000],
    ['1_000', 1000],
    ['64k', 65_536],
    ['64K', 65_536],
    ['64KiB', 65_536],
    ['512M', 512 << 20],
    ['512MB', 512 << 20],
    ['1G', 1 << 30],
    [' 2 GiB ', 2 * 2 ** 30],
    ['1T', 2 ** 40],
    ['5b', 5],
  ])('%j is %d bytes', (text, bytes) => {
    expect(parseSize(text, '--max-output')).toBe(bytes);
  });

  it.each(['', 'lots', '-1', '1.5G', '1P', 'G', '1 G B', '99999999999T'])(
    '%j is a one-line error',
    (text) => {
      expect(() => parseSize(text, '--max-output')).toThrow(/^--max-output takes a size in bytes/);
    },
  );
});
