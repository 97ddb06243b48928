import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlines, lowerCopy, needsCleaning, scanBuffer, tallyNewlines } from '../../src/read/simd.js';
import { cleanLine } from '../../src/summary/clean.js';

const ROOT = join(import.meta.dirname, '..', '..');

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

  it('tally newlines and flag every block that holds something cleanLine changes', () => {
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc
        .constantFrom(
          'plain text\n',
          'é and — and ·\n',
          '\t tab\n',
          '\u009b',
          '\u202e',
          '\u061c',
          '\r',
          '\x1b[1m',
        )
        .map((t) => Buffer.from(t)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const bytes = Buffer.concat(pieces);
        const buf = scanBuffer(Math.max(1, bytes.length)).subarray(0, bytes.length);
        buf.set(bytes);
        let newlines = 0;
        for (const b of bytes) if (b === 10) newlines++;
        const tally = tallyNewlines(buf);
        expect(tally.newlines).toBe(newlines);
        const text = bytes.toString('utf8');
        const changes = text.split('\n').some((line) => cleanLine(line) !== line);
        expect(needsCleaning(buf)).toBe(changes);
        expect(needsCleaning(Buffer.from(bytes))).toBe(changes);
        if (changes) expect(tally.maybeUntidy).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('are the bytes scripts/assemble-simd.mjs assembles', () => {
    const assembled = execFileSync(process.execPath, [join(ROOT, 'scripts', 'assemble-simd.mjs')], {
      encoding: 'utf8',
    }).trim();
    const source = readFileSync(join(ROOT, 'src', 'read', 'simd.ts'), 'utf8');
    expect(/const MODULE =\s*'([^']+)'/.exec(source)?.[1]).toBe(assembled);
  });
});
