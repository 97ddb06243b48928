import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linesAt } from '../../src/store/lines-at.js';
import { tempDir } from '../support.js';

/** linesAt on a file of these bytes. */
function at(bytes: string | Buffer, wanted: number[], max = 100): Map<number, string> {
  const path = join(tempDir(), 'out.txt');
  writeFileSync(path, bytes);
  const fd = openSync(path, 'r');
  try {
    return new Map([...linesAt(fd, wanted, max)].map(([n, b]) => [n, b.toString()]));
  } finally {
    closeSync(fd);
  }
}

describe('linesAt: a few lines of a stored output by number', () => {
  it('gives the asked lines, in any order, without their newline', () => {
    expect(at('one\ntwo\nthree\n', [3, 1])).toEqual(
      new Map([
        [1, 'one'],
        [3, 'three'],
      ]),
    );
    expect(at('one\ntwo', [2])).toEqual(new Map([[2, 'two']]));
  });

  it('leaves out a line past the end, or longer than the limit', () => {
    expect(at('one\ntwo\n', [7])).toEqual(new Map());
    expect(at(`short\n${'x'.repeat(101)}\nend\n`, [2, 3])).toEqual(new Map([[3, 'end']]));
  });

  it('reads lines across its 1 MiB reads: one cut by a read, and the last of many', () => {
    // 200,000 lines of 10 bytes: 2 MB, so reads end inside lines.
    const lines = Array.from({ length: 200_000 }, (_, i) => `l${String(i + 1).padStart(8, '0')}`);
    const text = `${lines.join('\n')}\n`;
    const cut = Math.floor((1 << 20) / 10) + 1; // the line a read's end falls inside
    const got = at(text, [cut, 150_000, 200_000], 20);
    expect(got.get(cut)).toBe(lines[cut - 1]);
    expect(got.get(150_000)).toBe(lines[149_999]);
    expect(got.get(200_000)).toBe(lines[199_999]);
  });
});
