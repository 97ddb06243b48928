// `ctxwrap stats` as a process: what a real `ctxwrap read` printed is counted, byte for byte.
// The counting itself is tested in-process in unit/stats-command.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ctxwrap, tempDir, writeResult } from '../support.js';

it('ctxwrap stats counts the bytes a real ctxwrap read printed', async () => {
  const dir = join(tempDir(), 'run');
  writeResult(dir, 'ls_00000001', 'a\nb\nFAIL c\n', { command: ['ls'], summaryBytes: 4 });
  const read = await ctxwrap(['read', '--run-dir', dir, 'ls_00000001', '--lines', 'grep:FAIL']);
  expect(read.exitCode).toBe(0);
  const stats = await ctxwrap(['stats', '--json', '--run-dir', dir]);
  expect(stats.exitCode).toBe(0);
  expect(JSON.parse(stats.stdout).printed.byKind).toEqual({
    read: { prints: 1, bytes: Buffer.byteLength(read.stdout) },
  });
});
