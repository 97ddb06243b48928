import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasPrivate, MarkPieces } from '../../src/summary/key-ranges.js';

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

/** What MarkPieces replaced: a look at every byte of the line. */
function markPieceByLoop(buf: Buffer, s: number, e: number): boolean {
  for (let i = s; i + 1 < e; i++) {
    const c = buf[i] as number;
    if (c === 45 ? buf[i + 1] === 45 : c === 66 && buf[i + 1] === 69 && buf[i + 2] === 71) return true;
  }
  return false;
}

describe('MarkPieces', () => {
  it('says whether each line holds `--` or `BEG`, as a look at every byte does, asked in any order', () => {
    const piece = fc.constantFrom('-', '--', 'B', 'BE', 'BEG', 'EG', 'G', 'x', ' ', '\n', '\n-', 'E');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.nat(100), { maxLength: 8 }),
        (parts, order) => {
          const buf = Buffer.from(parts.join(''), 'latin1');
          const lines: [number, number][] = [];
          for (let s = 0; s <= buf.length; ) {
            let e = buf.indexOf(10, s);
            if (e === -1) e = buf.length;
            lines.push([s, e]);
            s = e + 1;
          }
          const marks = new MarkPieces();
          // Every line in order, then some again out of order.
          const asked = [...lines, ...order.map((k) => lines[k % lines.length] as [number, number])];
          for (const [s, e] of asked) expect(marks.has(buf, s, e)).toBe(markPieceByLoop(buf, s, e));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
