// The registry reads every result's metadata with one bounded read and no stat
// (readSmallNoFollow): what is not a regular file is still never trusted nor waited on, and
// metadata longer than that read is read whole.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listEntries } from '../../src/store/registry.js';
import { openRunDir } from '../../src/store/run-dir.js';
import { tempDir, writeResult } from '../support.js';

describe('listEntries', () => {
  it('skips metadata that is a link, a FIFO or a directory, without blocking', () => {
    const runDir = join(tempDir(), 'run');
    for (const id of ['sh_0000000a', 'sh_0000000b', 'sh_0000000c', 'sh_0000000d'])
      writeResult(runDir, id, 'x\n');
    const meta = (id: string) => join(runDir, 'tool_results', `${id}.json`);
    const outside = join(tempDir(), 'meta.json');
    writeFileSync(
      outside,
      '{"version":1,"id":"sh_0000000b","command":["x"],"startedAt":"2026-01-01T00:00:00Z","state":"complete"}',
    );
    unlinkSync(meta('sh_0000000b'));
    symlinkSync(outside, meta('sh_0000000b'));
    unlinkSync(meta('sh_0000000c'));
    execFileSync('mkfifo', [meta('sh_0000000c')]);
    unlinkSync(meta('sh_0000000d'));
    mkdirSync(meta('sh_0000000d'));
    expect(listEntries(openRunDir(runDir)).map((e) => e.meta.id)).toEqual(['sh_0000000a']);
  });

  it('reads metadata longer than one read (64 KiB) whole', () => {
    const runDir = join(tempDir(), 'run');
    const note = 'n'.repeat(100_000);
    writeResult(runDir, 'sh_0000000a', 'x\n', { note });
    const [entry] = listEntries(openRunDir(runDir));
    expect(entry?.meta.note).toBe(note);
  });
});
