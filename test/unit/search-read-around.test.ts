// readAround: whether the first line read is cut is told by the byte before the region read
// (read with it, in one call).
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAround } from '../../src/search/lines.js';
import { tempDir } from '../support.js';

function around(text: string, offset: number, line: number, bytes: number, exactEnds = false) {
  const path = join(tempDir(), 'out.txt');
  writeFileSync(path, text);
  const fd = openSync(path, 'r');
  try {
    return readAround(fd, [{ offset, line }], 1, 1000, exactEnds, bytes).map((p) => [p.n, p.text, p.before]);
  } finally {
    closeSync(fd);
  }
}

describe('readAround', () => {
  const text = `${'a'.repeat(3000)}\nline two match\nline three\n`;
  const at = text.indexOf('match');

  it('marks the first line cut when the region starts inside it', () => {
    expect(around(text, at, 2, 1024)).toEqual([
      [1, 'a'.repeat(3000 - (at - 1024)), -1],
      [2, 'line two match', 0],
      [3, 'line three', 0],
    ]);
    expect(around(text, at, 2, 1024, true)[0]).toEqual([1, 'a'.repeat(3000 - (at - 1024)), at - 1024]);
  });

  it('does not when the byte before the region is a newline, or the region starts the file', () => {
    // The region starts right after the first newline.
    expect(around(text, at, 2, at - 3001)[0]).toEqual([2, 'line two match', 0]);
    expect(around(text, at, 2, at - 3000)[0]).toEqual([1, '', -1]);
    expect(around('match\nnext\n', 0, 1, 1024)).toEqual([
      [1, 'match', 0],
      [2, 'next', 0],
    ]);
  });
});
