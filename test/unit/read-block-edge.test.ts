// Issue 20: `ctxwrap read` pages through a result in blocks of 1 MiB; a secret cut over two
// lines that a block boundary falls between was printed: the line before or after it was not in
// the block, so the half on this side of the boundary had nothing to be joined with.
import { describe, expect, it } from 'vitest';
import { readIn, tempDir, writeResult } from '../support.js';

const BLOCK = 1 << 20;
const ID = 'edge_0000000e';

/** Filler up to `end` bytes, then `first` ending exactly at the end of the first block, then `rest`. */
function output(first: string, rest: string): string {
  const line = `${'x'.repeat(99)}\n`;
  let text = line.repeat(Math.floor((BLOCK - first.length - 200) / line.length));
  text += `${'y'.repeat(BLOCK - text.length - first.length - 2)}\n`;
  return `${text}${first}\n${rest}\ntail\n`;
}

const read = (runDir: string, lines?: string) => readIn(runDir, ID, lines);

describe('a secret cut over the two lines a block of read ends and starts with', () => {
  for (const [first, rest, pieces] of [
    ['key id AKIA52GEX', 'AMPLEVV3IOQ in use', ['AKIA52GEX', 'AMPLEVV3IOQ']],
    [
      'using ghp_aB3dE5fG7hJ9kL1mN3p',
      'Q5rS7tU9vW1xY3z5A7b to push',
      ['aB3dE5fG7hJ9kL1mN3p', 'Q5rS7tU9vW1xY3z5A7b'],
    ],
  ] as const) {
    it(`is masked on both sides: ${first}`, async () => {
      const runDir = tempDir();
      const text = output(first, rest);
      expect(Buffer.from(text).indexOf(`${first}\n`) + first.length + 1).toBe(BLOCK);
      writeResult(runDir, ID, text);
      for (const lines of [undefined, 'grep:in use|to push', 'grep:key id|using', '10480-10490', 'last:3']) {
        const { stdout } = await read(runDir, lines);
        expect(stdout, String(lines)).toMatch(/in use|to push|key id|using/);
        expect(
          pieces.filter((p) => stdout.includes(p)),
          String(lines),
        ).toEqual([]);
      }
      // grep matches what it would show: a piece of the masked secret is not found.
      const { stdout } = await read(runDir, `grep:${pieces[0]}|${pieces[1]}`);
      expect(stdout).toMatch(/no line matches/);
    });
  }
});
