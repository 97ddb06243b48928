// `ctxwrap list` and `ctxwrap note` as a process: the CLI's wiring of their options, and a note
// set while the run is still going. Their logic is tested in-process in unit/list-note-command.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, startRunning, tempDir, writeResult } from '../support.js';

describe('ctxwrap list and note', () => {
  it('shows the escapes of a run-dir name rather than sending them to the terminal (issue 20)', async () => {
    const dir = join(tempDir(), 'run\u001b]52;c;aGk=\u0007\u001b[2J\u202e');
    const r = await ctxwrap(['list', '--run-dir', dir]);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(r.stdout).toContain('run^[]52;c;aGk=^G^[[2J<U+202E>]');
    const stats = await ctxwrap(['stats', '--run-dir', dir]);
    expect(stats.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('take their arguments, options and CTXWRAP_TTL from the command line', async () => {
    const dir = tempDir();
    writeResult(dir, 'new_00000001', 'x\n');
    writeResult(dir, 'old_00000002', 'y\n', { startedAt: new Date(Date.now() - 7_200_000).toISOString() });
    expect(await ctxwrap(['note', '--run-dir', dir, 'new_00000001', 'kept'])).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: '[ctxwrap new_00000001] note: kept\n',
    });
    const listed = await ctxwrap(['list', '--json', '--limit', '1', '--run-dir', dir], {
      env: { CTXWRAP_TTL: '1d' },
    });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 'new_00000001', note: 'kept' }]);
    const short = await ctxwrap(['list', '--run-dir', dir], { env: { CTXWRAP_TTL: '1h' } });
    expect(short.stdout).not.toContain('old_00000002');
    expect(await ctxwrap(['list', '--limit', 'x', '--run-dir', dir])).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: --limit takes a whole number at least 0 (got 'x')\n",
    });
  });

  it('a note survives the final metadata write of a run still going when it was set', async () => {
    const dir = tempDir();
    const run = await startRunning(dir);
    const id = run.id;
    expect((await ctxwrap(['note', '--run-dir', dir, id, 'waits for a signal'])).exitCode).toBe(0);
    run.child.kill('SIGTERM');
    expect((await run.child).exitCode).toBe(0);
    const after = JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout);
    expect(after[0]).toMatchObject({ id, state: 'complete', exitCode: 0, note: 'waits for a signal' });
  });
});
