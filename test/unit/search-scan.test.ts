import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ripgrepPath } from '../../src/search/engine.js';
import { formsOf, grepParser, type Scanned, scanFile, scanWithGrep } from '../../src/search/scan.js';
import { tempDir } from '../support.js';

// Words that are not prefixes of each other and cannot overlap themselves: where grep -o and
// indexOf could legitimately disagree (`aa` in `aaa`), the two scans are not compared.
const WORDS = ['error', 'refused', 'postgres'];
const SPELLINGS = [
  'error',
  'ERROR',
  'Error',
  'eRRor',
  'refused',
  'REFUSED',
  'Refused',
  'postgres',
  'Postgres',
];

/** A deterministic pseudo-random text of about `bytes`, with words, long lines and blank ones. */
function output(seed: number, bytes: number): string {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const kind = next(20);
    let line: string;
    if (kind === 0) line = '';
    else if (kind === 1)
      line = 'x'.repeat(next(200_000)); // long lines, some past a pipe chunk
    else {
      const parts: string[] = [];
      for (let k = next(12); k > 0; k--)
        parts.push(next(5) === 0 ? SPELLINGS[next(SPELLINGS.length)]! : `w${next(1000)}`);
      line = parts.join(next(2) === 0 ? ' ' : ':');
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

const comparable = (s: Scanned) => ({
  binary: s.binary,
  matches: s.matches,
  windows: s.windows,
});

describe('scan', () => {
  it('grep and JS find the same matches and windows in outputs larger than every buffer', async () => {
    const dir = tempDir();
    // Over 1 MiB (the JS scan's chunk) and, for the common word, far over grep's 64 KiB pipe reads.
    const names = Array.from({ length: 12 }, (_, i) => `out_${i}.txt`);
    names.forEach((n, i) => {
      writeFileSync(join(dir, n), output(i + 1, i < 3 ? 2_500_000 : 40_000 + i * 9_000));
    });
    const literals = WORDS.map((w) => formsOf(w));
    const byGrep = await scanWithGrep(dir, names, literals);
    expect(byGrep).toBeDefined();
    const byJs = names.map((n) => scanFile(join(dir, n), literals));
    expect(byGrep!.map(comparable)).toEqual(byJs.map(comparable));
    // The comparison is not empty: the common word fills windows in every output.
    expect(byJs.every((s) => s.windows[0]!.length > 10)).toBe(true);
  });

  it('scans a line longer than its chunk, full of matches, in one pass (issue 20 #13)', () => {
    // 8 MiB on one line, a match every 8 bytes (1,048,576), then a second line: counting
    // newlines up to each match from its chunk's end cost a chunk per match (over a minute here;
    // now a second: the bound below is that of a pass, not a measurement).
    const dir = tempDir();
    const path = join(dir, 'one_line.txt');
    const line = 'Refused '.repeat(1_048_576);
    writeFileSync(path, `${line}\nrefused at last\n`);
    const s = scanFile(path, [formsOf('refused')]);
    expect(s.lines).toBe(2);
    expect(s.bytes).toBe(line.length + 17);
    // Window 0 holds lines 1-8: every match of both lines.
    expect(s.windows[0]).toEqual([0]);
    const last = s.matches.find((m) => m.line === 2);
    expect(
      s.matches
        .filter((m) => m.line === 1)
        .slice(0, 3)
        .map((m) => m.offset),
    ).toEqual([0, 8, 16]);
    expect(last === undefined || last.offset === line.length + 1).toBe(true);
  }, 10_000);

  it("grep's output is read the same wherever its chunks are cut", () => {
    const dir = tempDir();
    const names = ['a_1.txt', 'b_2.txt', 'c_3.txt'];
    names.forEach((n, i) => {
      writeFileSync(join(dir, n), output(i + 7, 30_000));
    });
    const raw = execFileSync('grep', ['-aobnHFi', '-e', 'error', '-e', 'refused', '--', ...names], {
      cwd: dir,
      env: { ...process.env, LC_ALL: 'C' },
    });
    const forms = WORDS.flatMap((w, word) => formsOf(w).map((bytes) => ({ bytes, word })));
    const read = (cuts: number[]) => {
      const got: number[][] = [];
      const parse = grepParser(names, [0, 1, 2], forms, (...m) => got.push(m));
      let from = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        parse(raw.subarray(from, cut));
        from = cut;
      }
      parse(raw.subarray(from));
      return got;
    };
    const whole = read([]);
    expect(whole.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: raw.length }), { maxLength: 40 }), (cuts) => {
        expect(read(cuts)).toEqual(whole);
      }),
    );
    // ripgrep's --heading form (each name once, before its matches) reads the same, however cut.
    const rg = ripgrepPath();
    if (!rg) return;
    const headed = execFileSync(
      rg,
      ['-j1', '-aobnHFi', '--heading', '--no-config', '-e', 'error', '-e', 'refused', '--', ...names],
      { cwd: dir },
    );
    expect(headed.length).toBeLessThan(raw.length);
    const readHeaded = (cuts: number[]) => {
      const got: number[][] = [];
      const parse = grepParser(names, [0, 1, 2], forms, (...m) => got.push(m), true);
      let from = 0;
      for (const cut of [...cuts].sort((a, b) => a - b)) {
        parse(headed.subarray(from, cut));
        from = cut;
      }
      parse(headed.subarray(from));
      return got;
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: headed.length }), { maxLength: 40 }), (cuts) => {
        expect(readHeaded(cuts)).toEqual(whole);
      }),
    );
  });
});

describe("ripgrep's outputs in any order", () => {
  it('are each read under their own name (its threads print whole outputs, in the order they finish)', () => {
    const names = ['a_1.txt', 'b_2.txt', 'c_3.txt'];
    const forms = formsOf('error').map((bytes) => ({ bytes, word: 0 }));
    // c_3 first, then a_1; b_2 holds none.
    const headed = Buffer.from('c_3.txt\n4:40:error\n9:95:Error\n\na_1.txt\n2:11:ERROR\n');
    const got: number[][] = [];
    grepParser(names, [0, 1, 2], forms, (...m) => got.push(m), true)(headed);
    expect(got).toEqual([
      [2, 0, 40, 4],
      [2, 0, 95, 9],
      [0, 0, 11, 2],
    ]);
  });
});
