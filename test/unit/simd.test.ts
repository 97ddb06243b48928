import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlines, lowerCopy, scanBuffer } from '../../src/read/simd.js';

describe('the SIMD byte loops', () => {
  it('count newlines like a plain loop, at any offset and length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(40), fc.nat(300), (bytes, from, length) => {
        const buf = scanBuffer(400);
        buf.set(bytes);
        const to = Math.min(bytes.length, from + length);
        let expected = 0;
        for (let i = from; i < to; i++) if (bytes[i] === 10) expected++;
        expect(countNewlines(buf, from, to)).toBe(expected);
        expect(countNewlines(Buffer.from(bytes), from, to)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('lower-case ASCII letters only, leaving every other byte as it is', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(20), (bytes, skip) => {
        const buf = scanBuffer(400);
        buf.set(bytes);
        const view = buf.subarray(Math.min(skip, bytes.length), bytes.length);
        const expected = Buffer.from(view.map((b) => (b >= 65 && b <= 90 ? b | 32 : b)));
        expect(Buffer.compare(lowerCopy(view), expected)).toBe(0);
        expect(Buffer.compare(lowerCopy(Buffer.from(view)), expected)).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
});
