import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardLiterals } from '../../src/summary/guard-literals.js';
import { GuardScan } from '../../src/summary/guard-scan.js';
import { buildGuard } from '../../src/summary/salience.js';

/** Pieces that make or nearly make the guard's words, in every case, and bytes around them. */
const PIECES = [
  'err',
  'ERR',
  'Err',
  'eRr',
  'fail',
  'FAIL',
  'warn',
  'Warning',
  'test',
  'tests:',
  'Tests ',
  'test ',
  'e123',
  'E0308',
  'e12',
  'xe1234',
  'e123456',
  '--- ',
  '---',
  '==12==',
  '==x',
  'e  x',
  'E   y',
  'e ',
  'compiled',
  'compiling',
  'built in',
  'build',
  'found 3',
  'found x',
  'added 1',
  'ran 2',
  'ran x',
  'problem',
  'Problems',
  "can't",
  'could not',
  'no such',
  'not ok',
  'private key',
  'PRIVATE-LINES:',
  '***',
  '**',
  'summary',
  'total',
  'heap',
  'leak',
  'lost',
  'undefined',
  'expected',
  'received',
  '\u00e2\u009c\u0095',
  '\u00c2\u009c\u0098',
  '\u00e3\u0097',
  '\u00c3\u0097',
  '\u00e2\u0097\u008f',
  '\u00e2\u009c',
  '\u00e3',
  '\u0097',
  ' ',
  '  ',
  '\t',
  '\r',
  '\n',
  '\n',
  '\n',
  'a',
  'Z',
  '0',
  '7',
  ':',
  '-',
  '=',
  '_',
  '.',
  '+',
  'v8js',
  'Ünïcödé',
  '\u00ff',
  '\u00b5',
  '\u00df',
  '\u00d7',
  '\u00f7',
  'x'.repeat(40),
];

const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 120 })
  .map((parts) => parts.join(''));

/** The lines that matter as the regex finds them, one line at a time. */
function reference(bytes: Buffer, guard: RegExp, longBytes: number): { at: number[]; lines: number } {
  const one = new RegExp(guard.source, 'im');
  const at: number[] = [];
  let lines = 0;
  for (let s = 0; s < bytes.length; ) {
    let e = bytes.indexOf(10, s);
    if (e === -1) e = bytes.length;
    if (e - s > longBytes || one.test(bytes.toString('latin1', s, e))) at.push(s);
    lines++;
    s = e + 1;
  }
  return { at, lines };
}

/** The same found by the scanner, from each line after one that matters. */
function scanned(scan: GuardScan, bytes: Buffer): { at: number[]; lines: number } {
  const at: number[] = [];
  let lines = 0;
  for (let pos = 0; pos < bytes.length; ) {
    const f = scan.next(bytes, pos, bytes.length);
    lines += f.lines;
    if (f.at >= bytes.length) break;
    at.push(f.at);
    lines++;
    const e = bytes.indexOf(10, f.at);
    pos = e === -1 ? bytes.length : e + 1;
  }
  return { at, lines };
}

/** `text` as latin1 bytes, at an even or an odd address (the scanner reads two bytes at a time). */
function bytesAt(s: string, odd: boolean): Buffer {
  const raw = Buffer.from(s, 'latin1');
  const home = Buffer.alloc(raw.length + 2);
  raw.copy(home, odd ? 1 : 2);
  return home.subarray(odd ? 1 : 2, (odd ? 1 : 2) + raw.length);
}

describe('the guard scanner', () => {
  it('finds exactly the lines the guard regex matches, and the long ones', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 8, max: 300 }),
        fc.oneof(
          fc.constant<string[]>([]),
          fc.array(fc.constantFrom('v8js', 'inkscape', 'a+b+c', '.hidden', 'libé', 'x86_64'), {
            maxLength: 3,
          }),
          // Arbitrary words (a one-letter one leaves the scanner without its table).
          fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
        ),
        fc.constantFrom(0, 100, 1e9),
        (parts, odd, longBytes, hints, tableAfter) => {
          const guard = buildGuard(hints.map((h) => h.toLowerCase()));
          const bytes = bytesAt(parts.join(''), odd);
          // The table from the first byte, after 100 bytes, or never (the regex over each piece).
          const scan = new GuardScan(guard, longBytes, tableAfter);
          expect(scanned(scan, bytes)).toEqual(reference(bytes, guard, longBytes));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('finds a literal keyed on its last bytes, where the output is full of its first ones', () => {
    // `compil…` and `buil…` everywhere: `compiled` and `built in` are keyed on later bytes.
    const lines: string[] = [];
    for (let n = 0; n < 3000; n++) {
      const pad = ' '.repeat(n % 7);
      if (n % 97 === 5) lines.push(`${pad}unit ${n} COMPILED`);
      else if (n % 89 === 3) lines.push(`${pad}Built in ${n} ms`);
      else lines.push(`${pad}compiling unit ${n} of the build, all fine so far`);
    }
    const guard = buildGuard([]);
    for (const odd of [false, true]) {
      const bytes = bytesAt(lines.join('\n'), odd);
      const found = scanned(new GuardScan(guard, 1000, 0), bytes);
      expect(found).toEqual(reference(bytes, guard, 1000));
      expect(found.at.length).toBe(lines.filter((l) => /COMPILED|Built in/.test(l)).length);
    }
  });

  it('has its table for the guard with the words a command line gives', () => {
    expect(new GuardScan(buildGuard([]), 100).filtered).toBe(true);
    expect(new GuardScan(buildGuard(['v8js', 'inkscape', 'x86_64', 'a+b+c']), 100).filtered).toBe(true);
  });

  it('reads a literal start for every alternative of the guard', () => {
    const literals = guardLiterals(buildGuard(['inkscape']).source);
    expect(literals?.length).toBeGreaterThan(50);
    expect(literals?.every((l) => l.codes.length > 0)).toBe(true);
  });
});
