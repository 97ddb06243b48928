// Issue 20, the item left open: the first half of a secret wrapped over two lines was printed
// (the second half was masked given the line before it, and only where lines were shown in
// order). Every view now has the line before and after where it is at hand: the summary (its
// head and tail windows, and a salient line in the middle, whose neighbours the collector keeps),
// `read` (default and `--lines grep:`) and `search`, which matches the masked text only.
import { describe, expect, it } from 'vitest';
import { Collector } from '../../src/summary/collector.js';
import { buildSummary, renderSummary } from '../../src/summary/render.js';
import { summarize } from '../../src/summary/summarize.js';
import { readIn, searchIn, tempDir, writeResult } from '../support.js';

const JWT_HEAD = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxM';
const JWT_REST = 'jM0NTY3ODkwIiwibmFtZSI6IkZBS0UifQ.c2lnbmF0dXJlRkFLRXNpZ25hdHVyZQ';
const GH_HEAD = 'aB3dE5fG7hJ9kL1mN3p';
const GH_REST = 'Q5rS7tU9vW1xY3z5A7b';
const PIECES = ['AKIA52GEX', 'AMPLEVV3IOQ', JWT_HEAD, JWT_REST, GH_HEAD, GH_REST];

const filler = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word} module ${i} ok`);
/** A wrapped key id at the top, a wrapped JWT in an error in the middle, a token at the end. */
const OUTPUT = `${[
  'key id AKIA52GEX',
  'AMPLEVV3IOQ in use',
  ...filler('compiling', 3000),
  `error: login failed with token ${JWT_HEAD}`,
  JWT_REST,
  ...filler('linking', 3000),
  `using ghp_${GH_HEAD}`,
  `${GH_REST} to push`,
].join('\n')}\n`;

const ID = 'sh_0000a1b2';
function stored(): string {
  const runDir = tempDir();
  writeResult(runDir, ID, OUTPUT, { exitCode: 1, childExitCode: 1 });
  return runDir;
}

const read = (runDir: string, lines?: string) => readIn(runDir, ID, lines);

const leaked = (text: string) => PIECES.filter((p) => text.includes(p));

describe('a secret wrapped over two lines, both halves', () => {
  it('are masked in the summary: head, tail and a salient line in the middle', () => {
    const summary = summarize(OUTPUT, { exitCode: 1 });
    expect(summary).toContain('error: login failed with token [redacted:split-secret]');
    expect(leaked(summary)).toEqual([]);
  });

  it('are masked alike however the output came in chunks', () => {
    const bytes = Buffer.from(OUTPUT);
    const facts = { id: ID, path: '/runs/sh.txt', exitCode: 1, durationMs: 10 };
    const summaryIn = (sizes: number[]) => {
      const c = new Collector();
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const n = sizes[i % sizes.length] as number;
        c.push(bytes.subarray(at, at + n));
        at += n;
      }
      return renderSummary(buildSummary(c.end(), facts));
    };
    const whole = summaryIn([bytes.length]);
    expect(whole).toContain('[redacted:split-secret]');
    expect(leaked(whole)).toEqual([]);
    for (const sizes of [[1, 3, 17], [64], [4093, 11], [65_536]]) expect(summaryIn(sizes)).toBe(whole);
  });

  it('are masked by read', async () => {
    const r = await read(stored());
    expect(r.stdout).toContain('1: key id [redacted:split-secret]');
    expect(leaked(r.stdout)).toEqual([]);
  });

  it.each(PIECES)('are not found by read --lines grep: %s', async (piece) => {
    const r = await read(stored(), `grep:${piece.slice(0, 9)}`);
    expect(r.stdout).toMatch(/no line matches/);
  });

  it('are masked in the lines grep shows around a match', async () => {
    const r = await read(stored(), 'grep:to push|in use|login failed');
    expect(r.stdout).toContain('2: [redacted:split-secret] in use');
    expect(leaked(r.stdout)).toEqual([]);
  });

  it.each(PIECES)('are not found by search: %s', async (piece) => {
    const r = await searchIn(stored(), [piece]);
    expect(r.stdout).toMatch(/no matches/);
  });

  it('are masked in the lines a search hit shows, at its edges too', async () => {
    const runDir = stored();
    for (const query of ['in use', 'compiling module 2999', 'linking module 2999']) {
      const r = await searchIn(runDir, [query]);
      expect(r.stdout).toMatch(/hit 1\//);
      expect(leaked(r.stdout)).toEqual([]);
    }
  });
});
