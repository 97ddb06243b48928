import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlines, lowerCopy, mayHideLiteral, needsCleaning } from '../../src/read/bytes.js';
import { cleanLine } from '../../src/summary/clean.js';

/** `bytes` placed `shift` bytes into a fresh buffer, so that every alignment is tried. */
function shifted(bytes: Uint8Array, shift: number): Buffer {
  const buf = Buffer.allocUnsafeSlow(bytes.length + shift).subarray(shift);
  buf.set(bytes);
  return buf;
}

/** Bytes that are plain text or a piece `cleanLine` changes. */
const piece = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc
    .constantFrom(
      'plain text\n',
      'é and — and ·\n',
      '\t tab\n',
      'ERROR',
      'RROR',
      '\u0005',
      '\u009b',
      '\u202e',
      '\u2066',
      '\u061c',
      '\u0085',
      '\r',
      '\x7f',
      '\x1b[1m',
    )
    .map((t) => Buffer.from(t)),
);

describe('the byte loops of read', () => {
  it('count newlines like a plain loop, at any offset, length and alignment', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(40),
        fc.nat(300),
        fc.nat(3),
        (bytes, from, length, shift) => {
          const to = Math.min(bytes.length, from + length);
          let expected = 0;
          for (let i = from; i < to; i++) if (bytes[i] === 10) expected++;
          expect(countNewlines(shifted(bytes, shift), from, to)).toBe(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('lower-case ASCII letters only, leaving every other byte as it is', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(3), (bytes, shift) => {
        const expected = Buffer.from(bytes.map((b) => (b >= 65 && b <= 90 ? b | 32 : b)));
        expect(lowerCopy(shifted(bytes, shift)).equals(expected)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('say a block needs cleaning exactly when cleanLine changes one of its lines', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(3), (pieces, shift) => {
        const bytes = Buffer.concat(pieces);
        const changes = bytes
          .toString('utf8')
          .split('\n')
          .some((line) => cleanLine(line) !== line);
        expect(needsCleaning(shifted(bytes, shift))).toBe(changes);
      }),
      { numRuns: 2000 },
    );
  });

  it('never let a raw byte search miss a literal that a cleaned line shows', () => {
    const literal = fc.constantFrom(
      'ERROR',
      'error',
      'RROR',
      'U+202E',
      '+202',
      'timeout',
      'E0502',
      '^E',
      'x<U',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), literal, fc.boolean(), (pieces, word, foldCase) => {
        const bytes = Buffer.concat(pieces);
        const needle = foldCase ? word.toLowerCase() : word;
        const fold = (text: string) => (foldCase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text);
        const raw = fold(bytes.toString('latin1')).split('\n');
        const cleaned = bytes.toString('utf8').split('\n').map(cleanLine).map(fold);
        const missed = cleaned.some((line, i) => line.includes(needle) && !raw[i]?.includes(needle));
        if (missed) expect(mayHideLiteral(bytes, Buffer.from(needle, 'latin1'), foldCase)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('trust the raw bytes of a tidy block', () => {
    const tidy = Buffer.from('12:00 INFO request ok\n12:01 ERROR upstream timeout\n');
    expect(needsCleaning(tidy)).toBe(false);
    expect(mayHideLiteral(tidy, Buffer.from('ERROR'), false)).toBe(false);
    expect(mayHideLiteral(Buffer.from('a \x05RROR b\n'), Buffer.from('ERROR'), false)).toBe(true);
    expect(mayHideLiteral(Buffer.from('ER\x1b[0mROR\n'), Buffer.from('ERROR'), false)).toBe(true);
  });
});
