import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_UP, MAX_UP_BYTES, opensBlock, recordHeader } from '../../src/search/record.js';
import { tempDir } from '../support.js';

/** The header of line `n` of `text` (1-based), read from a file as search reads it. */
function headerOf(text: string, n: number) {
  const path = join(tempDir(), 'out.txt');
  writeFileSync(path, text);
  const lines = text.split('\n');
  const start = Buffer.byteLength(lines.slice(0, n - 1).join('\n')) + (n > 1 ? 1 : 0);
  const fd = openSync(path, 'r');
  try {
    return recordHeader(fd, { n, text: lines[n - 1]!, start });
  } finally {
    closeSync(fd);
  }
}

describe("a hit's record header", () => {
  // 120-byte indented lines: a header 250 lines up is 30 KB above, past a first small read.
  const body = (k: number) => `    ${`detail line ${k} `.padEnd(115, '.')}`;

  it('is found far above the hit, within MAX_UP lines and MAX_UP_BYTES', () => {
    const lines = ['preamble', 'FAIL src/far.test.ts', ...Array.from({ length: 250 }, (_, k) => body(k))];
    expect(250 * 121).toBeLessThan(MAX_UP_BYTES);
    expect(headerOf(lines.join('\n'), lines.length)).toEqual({ n: 2, text: 'FAIL src/far.test.ts' });
  });

  it('is none past MAX_UP lines, nor past MAX_UP_BYTES', () => {
    const many = ['FAIL src/far.test.ts', ...Array.from({ length: MAX_UP + 5 }, (_, k) => body(k))];
    expect(headerOf(many.join('\n'), many.length)).toBeUndefined();
    const long = `    ${'x'.repeat(1000)}`;
    const wide = ['FAIL src/far.test.ts', ...Array.from({ length: 140 }, () => long), body(0)];
    expect(140 * 1005).toBeGreaterThan(MAX_UP_BYTES);
    expect(headerOf(wide.join('\n'), wide.length)).toBeUndefined();
  });

  it('is the nearest one, a few lines up', () => {
    const lines = ['FAIL a', ...Array.from({ length: 200 }, (_, k) => body(k)), 'FAIL b', body(1), body(2)];
    expect(headerOf(lines.join('\n'), lines.length)).toEqual({ n: 202, text: 'FAIL b' });
  });
});

describe('opensBlock', () => {
  // The rule as one regex (record.ts tests its first form alone on lines led by a lowercase
  // ASCII letter or a digit): the answers must be the same.
  const OPENS =
    /:\s*$|^[^\p{L}\p{N}\s]{0,4}\s*\p{Lu}{3,}\b|^[\p{Lu}][\w]*(?:Error|Exception)\b|^Traceback\b/u;
  const FIELD = /^[A-Za-z][\w-]*:\s+\S/;
  const piece = fc.constantFrom(
    'FAIL',
    'ERROR',
    'Traceback',
    'TypeError',
    'Exception',
    'error',
    'x',
    '9',
    '2026/11/26',
    ':',
    ': ',
    ' ',
    '\t',
    '==',
    '---',
    '[',
    'É',
    'ÉTAT',
    'é',
    'a1',
    'Key:',
    'key: v',
    '\u00a0',
    '_',
    '│',
  );
  it('says what the whole rule says', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.boolean(), (parts, afterBlank) => {
        const text = parts.join('');
        const indent0 = text !== '' && !/^[ \t│|]/.test(text);
        const expected = indent0 && !FIELD.test(text) && (afterBlank || OPENS.test(text));
        expect(opensBlock(text, afterBlank)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
