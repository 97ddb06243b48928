// Issue 20 (Low): `read --lines 2-3` on a 1 GB line said it was cut "from 16,384 chars". The
// line here is 80 MiB, longer than every buffer of the reader (64 MiB), made as a sparse file so
// the test writes a few bytes only: the note must give the line's true size.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResult } from '../../src/commands/read.js';
import { inProcess, tempDir, writeResult } from '../support.js';

const BIG = 80 * 1024 * 1024;

/** A result `first`, one line of BIG NULs (a hole in the file), `third`. */
function giantLine(): { runDir: string; id: string } {
  const runDir = tempDir();
  const id = 'big_0000000a';
  writeResult(runDir, id, 'first\n');
  const fd = openSync(join(runDir, 'tool_results', `${id}.txt`), 'r+');
  writeSync(fd, Buffer.from('\nthird\n'), 0, 7, 6 + BIG);
  closeSync(fd);
  return { runDir, id };
}

const read = (runDir: string, id: string, lines: string, extra: { raw?: boolean; maxChars?: number } = {}) =>
  inProcess((print) =>
    readResult({
      runDir,
      id,
      lines,
      print,
      printBytes: () => true,
      warn: (text) => print(`[warn] ${text}\n`),
      ...extra,
    }),
  );

describe('read on a line longer than every buffer', () => {
  it.each(['2-3', '2'])(
    '--lines %s says how long the line really is, and shows its two ends',
    async (lines) => {
      const { runDir, id } = giantLine();
      const r = await read(runDir, id, lines);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`…[line of ${BIG.toLocaleString('en-US')} bytes cut]…`);
      expect(r.stdout).not.toMatch(/16,384|67,108,86/);
      expect(r.stdout.length).toBeLessThanOrEqual(4001);
      if (lines === '2-3') expect(r.stdout).toContain(`line 2 cut from ${BIG.toLocaleString('en-US')} bytes`);
    },
  );

  it('--raw --lines 2-3 says how long the line really is', async () => {
    const { runDir, id } = giantLine();
    const r = await read(runDir, id, '2-3', { raw: true, maxChars: 1000 });
    expect(r.stdout).toContain(`line 2 cut from ${BIG.toLocaleString('en-US')} bytes`);
  });

  it('last:2 ends with the line whole or says what it left out', async () => {
    const { runDir, id } = giantLine();
    const r = await read(runDir, id, 'last:2');
    expect(r.stdout).not.toMatch(/16,384|67,108,86/);
    expect(r.stdout).toContain('3: third');
  });

  it('a line cut to fit but decoded whole still counts characters', async () => {
    const runDir = tempDir();
    writeResult(runDir, 'long_0000000b', `${'é'.repeat(30_000)}\n`);
    // Cut to fit alone: the marker counts what it left out of the whole line (it counted from
    // the line already cut to 16,384 characters).
    const alone = await read(runDir, 'long_0000000b', '1');
    const omitted = Number(/…\[([\d,]+) chars omitted\]…/.exec(alone.stdout)?.[1]?.replace(/,/g, ''));
    expect(omitted + (alone.stdout.match(/é/g) ?? []).length).toBe(30_000);
    // Cut to leave room for the closing note: the note says how long it is.
    writeResult(runDir, 'two_0000000c', `${'é'.repeat(30_000)}\nsecond\n`);
    const r = await read(runDir, 'two_0000000c', '1-2');
    expect(r.stdout).toContain('line 1 cut from 30,000 chars');
  });
});
