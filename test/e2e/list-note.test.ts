import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ago, ctxwrap, startRunning, tempDir, writeResult } from '../support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The pid of a process that has exited (so a 'running' result of it is incomplete). */
const deadPid = () => spawnSync('true').pid as number;

function fourResults(dir: string): void {
  writeResult(dir, 'old_00000001', 'x\n'.repeat(1234), {
    startedAt: ago(2 * DAY + HOUR),
    command: ['npm', 'test'],
  });
  writeResult(dir, 'tsc_00000002', 'error\n', {
    startedAt: ago(3 * HOUR + 60_000),
    command: ['/bin/sh', '-c', 'tsc --noEmit && echo "all good"'],
    source: 'shell',
    exitCode: 2,
    childExitCode: 2,
  });
  writeResult(dir, 'slow_00000003', 'partial', {
    startedAt: ago(5 * 60_000 + 5000),
    state: 'running',
    pid: deadPid(),
    exitCode: undefined,
    bytes: undefined,
    lines: undefined,
  });
  writeResult(dir, 'live_00000004', 'so far\n', {
    startedAt: ago(2 * 60_000 + 5000), // shown as 2m for a minute: a loaded machine is slow to list
    state: 'running',
    pid: process.pid,
    command: ['make', '-j8', 'target with space'],
    exitCode: undefined,
    bytes: undefined,
    lines: undefined,
  });
}

describe('ctxwrap list', () => {
  it('says when there is nothing', async () => {
    const dir = join(tempDir(), 'run');
    expect(await ctxwrap(['list', '--run-dir', dir])).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: `[ctxwrap: no results in ${dir}]\n`,
    });
    expect((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout).toBe('[]\n');
  });

  it('shows the escapes of a run-dir name rather than sending them to the terminal (issue 20)', async () => {
    const dir = join(tempDir(), 'run\u001b]52;c;aGk=\u0007\u001b[2J\u202e');
    const r = await ctxwrap(['list', '--run-dir', dir]);
    expect(r.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(r.stdout).toContain('run^[]52;c;aGk=^G^[[2J<U+202E>]');
    const stats = await ctxwrap(['stats', '--run-dir', dir]);
    expect(stats.stdout).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it('lists newest first, in aligned columns, running and incomplete results marked', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    const r = await ctxwrap(['list', '--run-dir', dir]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'ID             AGE  EXIT        LINES    SIZE  COMMAND',
        "live_00000004  2m   running         1     7 B  make -j8 'target with space'",
        'slow_00000003  5m   incomplete      1     7 B  make all',
        'tsc_00000002   3h   2               1     6 B  tsc --noEmit && echo "all good"',
        'old_00000001   2d   0           1,234  2.5 kB  npm test',
        '',
      ].join('\n'),
    );
  });

  it('never lists expired results (CTXWRAP_TTL)', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    writeResult(dir, 'gone_00000005', 'old\n', { startedAt: ago(8 * DAY) });
    const ids = async (env = {}) =>
      (
        JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir], { env })).stdout) as { id: string }[]
      ).map((x) => x.id);
    // (The first list also prunes, with its own time to live: see clean.test.ts.)
    expect(await ids({ CTXWRAP_TTL: '30d' })).toContain('gone_00000005');
    expect(await ids()).toEqual(['live_00000004', 'slow_00000003', 'tsc_00000002', 'old_00000001']);
    expect(await ids({ CTXWRAP_TTL: '1h' })).toEqual(['live_00000004', 'slow_00000003']);
    const bad = await ctxwrap(['list', '--run-dir', dir], { env: { CTXWRAP_TTL: 'soon' } });
    expect(bad).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: CTXWRAP_TTL takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'soon')\n",
    });
  });

  it('gives programs JSON and bounds the text with --limit', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    const json = JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout);
    expect(json[2]).toEqual({
      id: 'tsc_00000002',
      state: 'complete',
      startedAt: expect.any(String),
      ageMs: expect.any(Number),
      exitCode: 2,
      endReason: 'exit',
      lines: 1,
      bytes: 6,
      source: 'shell',
      command: ['/bin/sh', '-c', 'tsc --noEmit && echo "all good"'],
      cwd: '/tmp',
      path: join(dir, 'tool_results', 'tsc_00000002.txt'),
    });
    const limited = await ctxwrap(['list', '--limit', '2', '--run-dir', dir]);
    expect(limited.stdout.split('\n').slice(-2)).toEqual([
      '[ctxwrap: 2 older results not listed; --limit 0 lists all]',
      '',
    ]);
    expect((await ctxwrap(['list', '--limit', 'x', '--run-dir', dir])).stderr).toBe(
      "ctxwrap: --limit takes a whole number at least 0 (got 'x')\n",
    );
  });
});

describe('ctxwrap note', () => {
  it('keeps a one-line note that list shows', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    const set = await ctxwrap(['note', '--run-dir', dir, 'tsc_00000002', 'build ok,\n  3 warnings\t']);
    expect(set).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: '[ctxwrap tsc_00000002] note: build ok, 3 warnings\n',
    });
    const list = (await ctxwrap(['list', '--run-dir', dir])).stdout.split('\n');
    expect(list[0]).toBe(
      'ID             AGE  EXIT        LINES    SIZE  COMMAND                          NOTE',
    );
    expect(list[3]).toBe(
      'tsc_00000002   3h   2               1     6 B  tsc --noEmit && echo "all good"  build ok, 3 warnings',
    );
    expect(list[4]).toBe('old_00000001   2d   0           1,234  2.5 kB  npm test');
    const json = JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout);
    expect(json[2].note).toBe('build ok, 3 warnings');
    expect(await ctxwrap(['note', '--run-dir', dir, 'tsc_00000002', ''])).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: '[ctxwrap tsc_00000002] note removed\n',
    });
    expect(existsSync(join(dir, 'tool_results', 'tsc_00000002.note'))).toBe(false);
  });

  it('refuses unknown and invalid ids, and notes that are not one short line', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    expect(await ctxwrap(['note', '--run-dir', dir, 'npm_0123abcd', 'x'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: no result 'npm_0123abcd' in ${dir} (see 'ctxwrap list')\n`,
    });
    const bad = await ctxwrap(['note', '--run-dir', dir, '../x', 'x']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^ctxwrap: invalid result id '\.\.\/x'/);
    expect(await ctxwrap(['note', '--run-dir', dir, 'tsc_00000002', 'y'.repeat(301)])).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: 'ctxwrap: a note is one line of at most 300 characters (got 301)\n',
    });
  });

  it('survives the final metadata write of a run still going when it was set', async () => {
    const dir = join(tempDir(), 'run');
    const run = await startRunning(dir);
    const id = run.id;
    expect((await ctxwrap(['note', '--run-dir', dir, id, 'waits for a signal'])).exitCode).toBe(0);
    run.child.kill('SIGTERM');
    expect((await run.child).exitCode).toBe(0);
    const after = JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout);
    expect(after[0]).toMatchObject({ id, state: 'complete', exitCode: 0, note: 'waits for a signal' });
  });

  it('shows a note kept in the metadata by an older writer', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'meta_00000001', 'x\n', { note: 'from the metadata' });
    expect(JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout)[0].note).toBe(
      'from the metadata',
    );
    writeFileSync(join(dir, 'tool_results', 'meta_00000001.note'), 'from the note file\n');
    expect(JSON.parse((await ctxwrap(['list', '--json', '--run-dir', dir])).stdout)[0].note).toBe(
      'from the note file',
    );
  });
});
