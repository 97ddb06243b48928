// The three scans (ripgrep, GNU grep, the JS scan) give identical results on random outputs and
// queries: the same matches and windows. The JS scan runs in-process; the engines are
// the real binaries.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Engine, ripgrepPath } from '../../src/search/engine.js';
import { formsOf, isBinaryOutput, type Scanned, scanFile, scanWithGrep } from '../../src/search/scan.js';
import { tempDir } from '../support.js';

// Words that neither overlap themselves nor each other, nor are prefixes of each other, and
// always stand between separators: where `-o` and indexOf could legitimately disagree (`aa` in
// `aaa`), the scans are not compared.
const WORDS = ['error', 'refused', 'postgres', 'café', 'timeout'];
// Case mixes: forms a word is looked for in (as given, lower, upper, capitalised) and others.
const spell = (w: string, k: number) =>
  [
    w,
    w.toUpperCase(),
    w.charAt(0).toUpperCase() + w.slice(1),
    [...w].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join(''),
  ][k]!;
// Separators, among them bytes a Unicode-aware engine would fold (`ſ` is an `s`, `K` a `k`),
// CRLF, NUL, a UTF-16 byte order mark and invalid UTF-8.
const SEPARATORS = [' ', ':', '\n', '\r\n', '\n\n', 'ſ', '\u212a', '\0', '\ufeff', '\xff', '\t', ' x ', '-'];

const piece = fc.oneof(
  fc.record({ w: fc.integer({ min: 0, max: WORDS.length - 1 }), k: fc.integer({ min: 0, max: 3 }) }),
  fc.stringMatching(/^[a-z0-9 ]{0,30}$/),
  fc.integer({ min: 0, max: 3000 }).map((n) => 'z'.repeat(n)),
);
const output = fc
  .array(fc.tuple(piece, fc.integer({ min: 0, max: SEPARATORS.length - 1 })), { maxLength: 120 })
  .map((parts) =>
    Buffer.concat(
      parts.map(([p, s]) => {
        const text = typeof p === 'string' ? p : spell(WORDS[p.w]!, p.k);
        const sep = SEPARATORS[s]!;
        return Buffer.concat([Buffer.from(text), sep === '\xff' ? Buffer.from([0xff]) : Buffer.from(sep)]);
      }),
    ),
  );

const comparable = (s: Scanned) => ({ matches: s.matches, windows: s.windows });

describe('the scan engines', () => {
  const rg = ripgrepPath();
  const RG: Engine[] = rg ? [{ name: 'rg', command: rg }] : [];
  const GREP: Engine[] = [{ name: 'grep', command: 'grep' }];

  it('ripgrep is installed with ctxwrap (its per-platform package)', () => {
    expect(rg).toMatch(/ripgrep-[a-z0-9]+-[a-z0-9]+[/\\]bin[/\\]rg(\.exe)?$/);
  });

  it('ripgrep, grep and the JS scan give identical matches and windows', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(output, { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        async (files, query, k) => {
          const names = files.map((_, i) => `out_${i}.txt`);
          files.forEach((f, i) => {
            writeFileSync(join(dir, names[i]!), f);
          });
          const literals = query.map((w) => formsOf(spell(WORDS[w]!, k)));
          const scans = names.map((n) => scanFile(join(dir, n), literals));
          // The engines do not decide binary (the caller does, with isBinaryOutput, as the JS
          // scan does at its first match): an output so judged (`postgres\0`: a NUL in 9 bytes)
          // is compared as empty.
          const seen = (s: Scanned[] | undefined) =>
            s?.map((x, i) => (scans[i]!.binary ? comparable(scans[i]!) : comparable(x)));
          for (const [i, s] of scans.entries())
            if (s.binary) expect(isBinaryOutput(join(dir, names[i]!))).toBe(true);
          const js = scans.map(comparable);
          const byRg = await scanWithGrep(dir, names, literals, RG);
          const byGrep = await scanWithGrep(dir, names, literals, GREP);
          expect(seen(byRg)).toEqual(js);
          expect(seen(byGrep)).toEqual(js);
          for (const n of names) rmSync(join(dir, n));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('ripgrep and grep both report the longer of two words that start alike (FAILED, not FAIL)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'test_range_fail FAILED\nfail\n');
    const literals = [formsOf('fail'), formsOf('failed')];
    const words = (s: Scanned[] | undefined) => s?.[0]?.matches.map((m) => [m.word, m.line]);
    const byGrep = await scanWithGrep(dir, ['a.txt'], literals, GREP);
    expect(words(byGrep)).toEqual([
      [0, 1],
      [1, 1],
      [0, 2],
    ]);
    expect(words(await scanWithGrep(dir, ['a.txt'], literals, RG))).toEqual(words(byGrep));
  });

  it('reads the matches from a scratch file it leaves nowhere, or from a pipe when none can be made', async () => {
    const dir = tempDir();
    const names = ['a.txt', 'b.txt'];
    writeFileSync(join(dir, 'a.txt'), 'one\nan Error here\nthree error\n'.repeat(40_000));
    writeFileSync(join(dir, 'b.txt'), 'ERROR\n');
    const literals = [formsOf('error')];
    const js = names.map((n) => comparable(scanFile(join(dir, n), literals)));
    const scratch = tempDir();
    const saved = process.env.TMPDIR;
    try {
      for (const tmp of [scratch, join(scratch, 'missing')]) {
        process.env.TMPDIR = tmp;
        for (const engine of [...RG, ...GREP])
          expect((await scanWithGrep(dir, names, literals, [engine]))?.map(comparable)).toEqual(js);
      }
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('ripgrep finds a word inside a longer one in another mix of case, as the JS scan does', async () => {
    // `FAILed` is no form of `failed`, but holds `FAIL`, a form of `fail`: a folded search took
    // the place for `failed` and dropped it, so `fail` was not found there (GNU grep still so).
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'x FAILed\nLINKs\n');
    const literals = [formsOf('failed'), formsOf('fail'), formsOf('links'), formsOf('link')];
    const js = comparable(scanFile(join(dir, 'a.txt'), literals));
    expect(js.matches.map((m) => [m.word, m.line])).toEqual([
      [1, 1],
      [3, 2],
    ]);
    expect((await scanWithGrep(dir, ['a.txt'], literals, RG))?.map(comparable)).toEqual(
      rg ? [js] : undefined,
    );
  });

  it('passes over an engine that cannot be started for the next, and gives up when none can', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'one\nan Error here\nthree error\n');
    const literals = [formsOf('error')];
    const missing: Engine = { name: 'rg', command: join(dir, 'no-such-rg') };
    const next = await scanWithGrep(dir, ['a.txt'], literals, [missing, ...GREP]);
    expect(next?.map(comparable)).toEqual([comparable(scanFile(join(dir, 'a.txt'), literals))]);
    expect(next![0]!.matches.map((m) => m.line)).toEqual([2, 3]);
    expect(await scanWithGrep(dir, ['a.txt'], literals, [missing])).toBeUndefined();
  });
});
