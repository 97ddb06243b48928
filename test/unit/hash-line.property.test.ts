import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashLine } from '../../src/summary/hash.js';

/** The byte-at-a-time form hashLine had (and the fingerprints stored by earlier runs used). */
function reference(buf: Uint8Array, start: number, end: number): { exact: number; digits: number } {
  let stop = end;
  if (stop > start && buf[stop - 1] === 13) stop--;
  let exact = 0x811c9dc5;
  let digits = 0x811c9dc5;
  let run = 0;
  let lastDigit = 0;
  for (let i = start; i < stop; i++) {
    const c = buf[i] as number;
    exact = Math.imul(exact ^ c, 0x01000193);
    if (c >= 48 && c <= 57) {
      run++;
      lastDigit = c;
      continue;
    }
    if (run > 0) {
      digits = Math.imul(digits ^ (run === 1 && lastDigit === 48 ? 48 : 35), 0x01000193);
      run = 0;
    }
    digits = Math.imul(digits ^ c, 0x01000193);
  }
  if (run > 0) digits = Math.imul(digits ^ (run === 1 && lastDigit === 48 ? 48 : 35), 0x01000193);
  return { exact: exact >>> 0, digits: digits >>> 0 };
}

/** Bytes where digits, a lone 0, the classes' edges ('/', ':') and a final \r are common. */
const BYTE = fc.oneof(
  fc.constantFrom(48, 49, 57, 47, 58, 13, 10, 32, 35, 0, 255),
  fc.integer({ min: 0, max: 255 }),
);

describe('hashLine', () => {
  it('gives the byte-at-a-time values for any bytes and any range of them', () => {
    fc.assert(
      fc.property(fc.array(BYTE, { maxLength: 60 }), fc.nat(60), fc.nat(60), (bytes, a, b) => {
        const buf = Buffer.from(bytes);
        const start = Math.min(a, buf.length);
        const end = Math.max(start, Math.min(b, buf.length));
        expect(hashLine(buf, start, end)).toEqual(reference(buf, start, end));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps the values earlier runs stored (a lone 0 stays itself, other digit runs are one mark)', () => {
    expect(hashLine(Buffer.alloc(0), 0, 0)).toEqual({ exact: 0x811c9dc5, digits: 0x811c9dc5 });
    for (const text of ['src/m1.c:12:5: warning: unused variable', 'took 0 ms\r', '12345', '0']) {
      const buf = Buffer.from(text, 'latin1');
      expect(hashLine(buf, 0, buf.length)).toEqual(reference(buf, 0, buf.length));
    }
    const a = Buffer.from('at line 12 of 0');
    const b = Buffer.from('at line 7 of 0');
    const c = Buffer.from('at line 7 of 00');
    expect(hashLine(a, 0, a.length).digits).toBe(hashLine(b, 0, b.length).digits);
    expect(hashLine(a, 0, a.length).exact).not.toBe(hashLine(b, 0, b.length).exact);
    expect(hashLine(b, 0, b.length).digits).not.toBe(hashLine(c, 0, c.length).digits);
  });

  it('answers in one object reused by the next call, whose values are right when read at once', () => {
    const a = Buffer.from('x 12 y');
    const b = Buffer.from('z');
    const first = hashLine(a, 0, a.length);
    const { exact, digits } = first;
    expect({ exact, digits }).toEqual(reference(a, 0, a.length));
    expect(hashLine(b, 0, b.length)).toBe(first);
    expect({ ...first }).toEqual(reference(b, 0, b.length));
  });
});
