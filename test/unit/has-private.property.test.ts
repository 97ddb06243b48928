import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasPrivate } from '../../src/summary/key-ranges.js';

const PIECES = [
  'private',
  'PRIVATE',
  'Private',
  'privat',
  'rivate',
  'priv',
  'ate',
  'e',
  'E',
  'p',
  ' ',
  'x',
  'ß',
];

describe('hasPrivate', () => {
  it('says whether a line holds `private` in any case, as the case-insensitive regex does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 30 }),
        fc.nat(8),
        fc.nat(8),
        (parts, pre, post) => {
          const line = parts.join('');
          const buf = Buffer.from(`${'x'.repeat(pre)}${line}${'y'.repeat(post)}`, 'latin1');
          expect(hasPrivate(buf, pre, pre + Buffer.byteLength(line, 'latin1'))).toBe(
            /private/i.test(Buffer.from(line, 'latin1').toString('latin1')),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
