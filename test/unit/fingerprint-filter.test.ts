import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlines, type LineFinder, lineFinder } from '../../src/summary/fingerprint-filter.js';
import { buildPrefilter, PREFILTER_WORDS } from '../../src/summary/salience.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Line starts the finder reports, scanning the whole span as the collector does. */
function found(finder: LineFinder, span: Buffer): number[] {
  finder.reset(span);
  const starts: number[] = [];
  for (let at = finder.next(0); at !== -1; ) {
    starts.push(at);
    const end = span.indexOf(10, at);
    if (end === -1) break;
    at = finder.next(end + 1);
  }
  return starts;
}

/** Line starts of the lines the prefilter regex matches, line by line. */
function expected(span: Buffer, hints: string[]): number[] {
  const re = new RegExp(buildPrefilter(hints).source);
  const starts: number[] = [];
  for (let start = 0; start < span.length; ) {
    let end = span.indexOf(10, start);
    if (end === -1) end = span.length;
    if (re.test(span.toString('latin1', start, end).toLowerCase())) starts.push(start);
    start = end + 1;
  }
  return starts;
}

const keyword = fc.constantFrom(
  ...PREFILTER_WORDS.map((w) => w.replace('s?[: ]', ' ').replace('s?', '')),
  'ERROR',
  'Warning',
  'FaIlEd',
  'E1234 ',
  'e12',
  '✖',
  '✗',
  '✘',
  '×',
  'Ã\u0097',
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----END PRIVATE KEY',
  'Inkscape',
  'lodash',
);
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: keyword },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\n\n', ' ', '-', 'e', 'ERR', 'erR\n') },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b).toString('latin1')) },
);
const span = fc
  .array(piece, { maxLength: 60 })
  .chain((pieces) => fc.boolean().map((latin1) => Buffer.from(pieces.join(''), latin1 ? 'latin1' : 'utf8')));
const hints = fc.subarray(['inkscape', 'lodash', 'g++-12', 'x', 'regex-syntax']);

const finders = new Map<string, LineFinder>();
/** One finder of each kind per set of hints: building one costs a millisecond or two. */
function finderFor(words: string[], mode: 'simd' | 'regex'): LineFinder {
  const key = `${mode} ${words.join(',')}`;
  const finder = finders.get(key) ?? lineFinder(words, mode);
  finders.set(key, finder);
  return finder;
}

describe('the fingerprint filter', () => {
  it('finds exactly the lines the prefilter regex matches', () => {
    fc.assert(
      fc.property(span, hints, fc.nat(40), (bytes, words, skip) => {
        // At any offset, so that the 16-byte blocks fall everywhere.
        const at = Math.min(skip, bytes.length);
        const view = bytes.subarray(bytes.lastIndexOf(10, Math.max(0, at - 1)) + 1);
        const want = expected(view, words);
        expect(found(finderFor(words, 'simd'), view)).toEqual(want);
        expect(found(finderFor(words, 'regex'), view)).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('numbers lines: newlines before any position, asked in any order', () => {
    fc.assert(
      fc.property(span, fc.array(fc.nat(300), { maxLength: 8 }), (bytes, positions) => {
        for (const finder of [finderFor([], 'simd'), finderFor([], 'regex')]) {
          finder.reset(bytes);
          for (const p of positions.map((n) => Math.min(n, bytes.length))) {
            let want = 0;
            for (let i = 0; i < p; i++) if (bytes[i] === 10) want++;
            expect(finder.newlinesBefore(p)).toBe(want);
          }
        }
        let all = 0;
        for (const b of bytes) if (b === 10) all++;
        expect(countNewlines(bytes)).toBe(all);
        expect(countNewlines(Buffer.concat([bytes, Buffer.alloc(5000, 10)]))).toBe(all + 5000);
      }),
      { numRuns: 1000 },
    );
  });

  it('finds a keyword at every position of a long span, and nothing in plain text', () => {
    const plain = Buffer.from(`${'compiling unit 42 of the build, all fine so far\n'.repeat(40)}`);
    const finder = lineFinder([], 'simd');
    expect(found(finder, plain)).toEqual([]);
    for (let i = 0; i < 100; i++) {
      const bytes = Buffer.concat([plain.subarray(0, i), Buffer.from('x FATAL y\n'), plain.subarray(i)]);
      expect(found(finder, bytes)).toEqual(expected(bytes, []));
    }
  });

  it('reuses one finder across spans of any size', () => {
    const finder = lineFinder(['inkscape']);
    for (const size of [0, 1, 70_000, 3, 300_000, 10]) {
      const bytes = Buffer.alloc(size, 'a');
      if (size > 0) bytes.write('Inkscape\n', size - Math.min(size, 9));
      expect(found(finder, bytes)).toEqual(expected(bytes, ['inkscape']));
    }
  });

  it('is the bytes scripts/assemble-prefilter.mjs assembles', () => {
    const assembled = execFileSync(process.execPath, [join(ROOT, 'scripts', 'assemble-prefilter.mjs')], {
      encoding: 'utf8',
    }).trim();
    const source = readFileSync(join(ROOT, 'src', 'summary', 'fingerprint-filter.ts'), 'utf8');
    expect(/const MODULE =\s*'([^']+)'/.exec(source)?.[1]).toBe(assembled);
  });
});
