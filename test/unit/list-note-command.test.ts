// `ctxwrap list` and `ctxwrap note`, in-process against a temp run directory (the process-only
// parts, a note set while the run is still going and the CLI's wiring, are in e2e/list-note).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listResults } from '../../src/commands/list.js';
import { noteResult } from '../../src/commands/note.js';
import { resolveTtl } from '../../src/env.js';
import { parseWhole } from '../../src/parse-number.js';
import { ago, inProcess, tempDir, writeResult } from '../support.js';

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
    startedAt: ago(2 * 60_000 + 5000),
    state: 'running',
    pid: process.pid,
    command: ['make', '-j8', 'target with space'],
    exitCode: undefined,
    bytes: undefined,
    lines: undefined,
  });
}

/** `ctxwrap list [--json] [--limit n]` with CTXWRAP_TTL from `env`, as the CLI calls it. */
const list = (runDir: string, opts: { json?: boolean; limit?: string; env?: NodeJS.ProcessEnv } = {}) =>
  inProcess((print) =>
    listResults({
      runDir,
      json: opts.json === true,
      ...(opts.limit !== undefined ? { limit: parseWhole(opts.limit, '--limit', 0) } : {}),
      ttlMs: resolveTtl(opts.env ?? {}),
      print,
    }),
  );
const note = (runDir: string, id: string, text: string) =>
  inProcess((print) => noteResult({ runDir, id, text, print }));

describe('ctxwrap list', () => {
  it('says when there is nothing', async () => {
    const dir = join(tempDir(), 'run');
    expect(await list(dir)).toEqual({ exitCode: 0, stderr: '', stdout: `[ctxwrap: no results in ${dir}]\n` });
    expect((await list(dir, { json: true })).stdout).toBe('[]\n');
  });

  it('lists newest first, in aligned columns, running and incomplete results marked', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    const r = await list(dir);
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
      (JSON.parse((await list(dir, { json: true, env })).stdout) as { id: string }[]).map((x) => x.id);
    // (The first list also prunes, with its own time to live: see clean-command.test.ts.)
    expect(await ids({ CTXWRAP_TTL: '30d' })).toContain('gone_00000005');
    expect(await ids()).toEqual(['live_00000004', 'slow_00000003', 'tsc_00000002', 'old_00000001']);
    expect(await ids({ CTXWRAP_TTL: '1h' })).toEqual(['live_00000004', 'slow_00000003']);
    expect(await list(dir, { env: { CTXWRAP_TTL: 'soon' } })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: CTXWRAP_TTL takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'soon')\n",
    });
  });

  it('gives programs JSON and bounds the text with --limit', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    const json = JSON.parse((await list(dir, { json: true })).stdout);
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
    const limited = await list(dir, { limit: '2' });
    expect(limited.stdout.split('\n').slice(-2)).toEqual([
      '[ctxwrap: 2 older results not listed; --limit 0 lists all]',
      '',
    ]);
    expect((await list(dir, { limit: 'x' })).stderr).toBe(
      "ctxwrap: --limit takes a whole number at least 0 (got 'x')\n",
    );
  });
});

describe('ctxwrap note', () => {
  it('keeps a one-line note that list shows', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    expect(await note(dir, 'tsc_00000002', 'build ok,\n  3 warnings\t')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: '[ctxwrap tsc_00000002] note: build ok, 3 warnings\n',
    });
    const lines = (await list(dir)).stdout.split('\n');
    expect(lines[0]).toBe(
      'ID             AGE  EXIT        LINES    SIZE  COMMAND                          NOTE',
    );
    expect(lines[3]).toBe(
      'tsc_00000002   3h   2               1     6 B  tsc --noEmit && echo "all good"  build ok, 3 warnings',
    );
    expect(lines[4]).toBe('old_00000001   2d   0           1,234  2.5 kB  npm test');
    const json = JSON.parse((await list(dir, { json: true })).stdout);
    expect(json[2].note).toBe('build ok, 3 warnings');
    expect(await note(dir, 'tsc_00000002', '')).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: '[ctxwrap tsc_00000002] note removed\n',
    });
    expect(existsSync(join(dir, 'tool_results', 'tsc_00000002.note'))).toBe(false);
  });

  it('refuses unknown and invalid ids, and notes that are not one short line', async () => {
    const dir = join(tempDir(), 'run');
    fourResults(dir);
    expect(await note(dir, 'npm_0123abcd', 'x')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: no result 'npm_0123abcd' in ${dir} (see 'ctxwrap list')\n`,
    });
    const bad = await note(dir, '../x', 'x');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^ctxwrap: invalid result id '\.\.\/x'/);
    expect(await note(dir, 'tsc_00000002', 'y'.repeat(301))).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'ctxwrap: a note is one line of at most 300 characters (got 301)\n',
    });
  });

  it('shows a note kept in the metadata by an older writer', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'meta_00000001', 'x\n', { note: 'from the metadata' });
    const first = async () => JSON.parse((await list(dir, { json: true })).stdout)[0].note;
    expect(await first()).toBe('from the metadata');
    writeFileSync(join(dir, 'tool_results', 'meta_00000001.note'), 'from the note file\n');
    expect(await first()).toBe('from the note file');
  });
});
