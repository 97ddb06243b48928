// `ctxwrap clean` and expiry, in-process against a temp run directory (a real running writer
// and pruning from `ctxwrap run` are in e2e/clean).
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanResults } from '../../src/commands/clean.js';
import { listResults } from '../../src/commands/list.js';
import { showStats } from '../../src/commands/stats.js';
import { envText, resolveTtl } from '../../src/env.js';
import { formatBytes } from '../../src/format.js';
import { parseDuration } from '../../src/parse-duration.js';
import { processStart, setLastRun } from '../../src/store/results.js';
import { openRunDir } from '../../src/store/run-dir.js';
import { ago, inProcess, tempDir, writeResult } from '../support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const files = (dir: string) => readdirSync(join(dir, 'tool_results')).sort();
/** What removing a result frees: all of its files. */
const sizeOf = (dir: string, id: string) =>
  formatBytes(
    files(dir)
      .filter((f) => f.startsWith(`${id}.`))
      .reduce((n, f) => n + statSync(join(dir, 'tool_results', f)).size, 0),
  );

/** `ctxwrap clean` with its options and CTXWRAP_TTL from `env`, as the CLI calls it. */
const clean = (
  runDir: string,
  opts: { olderThan?: string; all?: boolean; dryRun?: boolean; env?: NodeJS.ProcessEnv } = {},
) =>
  inProcess((print) => {
    const env = opts.env ?? {};
    return cleanResults({
      runDir,
      olderThanMs:
        opts.olderThan !== undefined ? parseDuration(opts.olderThan, '--older-than') : resolveTtl(env),
      olderThanText: opts.olderThan ?? envText(env, 'CTXWRAP_TTL') ?? '7d',
      all: opts.all === true,
      dryRun: opts.dryRun === true,
      print,
    });
  });
const list = (runDir: string) => inProcess((print) => listResults({ runDir, ttlMs: resolveTtl({}), print }));

/** A result as a live `ctxwrap run` leaves it while the command runs: this process writes it. */
const running = (dir: string, id: string) =>
  writeResult(dir, id, 'started\n', {
    startedAt: ago(HOUR),
    state: 'running',
    pid: process.pid,
    pidStart: processStart(process.pid),
    exitCode: undefined,
    bytes: undefined,
    lines: undefined,
  });

describe('ctxwrap clean', () => {
  it('removes results older than the time to live, all their files, and keeps the rest', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'a\n'.repeat(500), { startedAt: ago(8 * DAY) });
    writeFileSync(join(dir, 'tool_results', 'old_00000001.note'), 'a note\n');
    writeFileSync(join(dir, 'tool_results', 'old_00000001.summary.txt'), 'summary\n');
    writeResult(dir, 'new_00000002', 'b\n', { startedAt: ago(HOUR) });
    const size = sizeOf(dir, 'old_00000001');
    expect(await clean(dir, { dryRun: true })).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `old_00000001  ${size.padStart(7)}  8d   make all\n[ctxwrap: would remove 1 result (${size}) older than 7d from ${dir}]\n`,
    });
    expect(files(dir)).toHaveLength(6);
    expect(await clean(dir)).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `[ctxwrap: removed 1 result (${size}) older than 7d from ${dir}]\n`,
    });
    expect(files(dir)).toEqual(['new_00000002.json', 'new_00000002.txt']);
    expect((await clean(dir)).stdout).toBe(`[ctxwrap: nothing older than 7d in ${dir}]\n`);
  });

  it('takes the age from --older-than, else CTXWRAP_TTL', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'three_00000001', 'x\n', { startedAt: ago(3 * HOUR) });
    writeResult(dir, 'one_00000002', 'y\n', { startedAt: ago(HOUR) });
    expect((await clean(dir, { env: { CTXWRAP_TTL: '4h' } })).stdout).toBe(
      `[ctxwrap: nothing older than 4h in ${dir}]\n`,
    );
    const three = sizeOf(dir, 'three_00000001');
    expect((await clean(dir, { env: { CTXWRAP_TTL: '2h' } })).stdout).toBe(
      `[ctxwrap: removed 1 result (${three}) older than 2h from ${dir}]\n`,
    );
    const one = sizeOf(dir, 'one_00000002');
    expect((await clean(dir, { olderThan: '30m', env: { CTXWRAP_TTL: '7d' } })).stdout).toBe(
      `[ctxwrap: removed 1 result (${one}) older than 30m from ${dir}]\n`,
    );
    expect(await clean(dir, { olderThan: 'later' })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: --older-than takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'later')\n",
    });
  });

  it('never removes a result still being written, even with --older-than 1ms or --all', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'done_00000001', '1\n2\n3\n', { startedAt: ago(HOUR) });
    running(dir, 'live_00000002');
    const mine = () => files(dir).filter((f) => f.startsWith('live_00000002.'));
    expect(mine()).toEqual(['live_00000002.json', 'live_00000002.txt']);
    expect((await clean(dir, { olderThan: '1ms' })).stdout).toMatch(
      new RegExp(
        `^\\[ctxwrap: removed 1 result \\(.+\\) older than 1ms from ${dir}; kept 1 still running\\]\\n$`,
      ),
    );
    expect(files(dir).some((f) => f.startsWith('done_00000001'))).toBe(false);
    expect((await clean(dir, { all: true })).stdout).toBe(
      `[ctxwrap: removed 0 results (0 B) from ${dir}; kept 1 still running]\n`,
    );
    expect(mine()).toEqual(['live_00000002.json', 'live_00000002.txt']);
  });

  it('--all removes every result and the run directory, and nothing that is not ctxwrap’s', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'three_00000001', '1\n2\n3\n');
    writeResult(dir, 'four_00000002', '1\n2\n3\n4\n');
    setLastRun(openRunDir(dir), '/tmp', ['make', 'all'], 'four_00000002');
    expect(existsSync(join(dir, 'last'))).toBe(true);
    expect((await clean(dir, { all: true })).stdout).toMatch(
      new RegExp(`^\\[ctxwrap: removed 2 results \\(.+\\) from ${dir}\\]\\n$`),
    );
    expect(existsSync(dir)).toBe(false);

    const shared = join(tempDir(), 'run');
    writeResult(shared, 'three_00000001', '1\n2\n3\n');
    writeFileSync(join(shared, 'notes.md'), 'mine\n');
    writeFileSync(join(shared, 'tool_results', 'README'), 'mine too\n');
    await clean(shared, { all: true });
    expect(readdirSync(shared).sort()).toEqual(['notes.md', 'tool_results']);
    expect(readdirSync(join(shared, 'tool_results'))).toEqual(['README']);
  });

  it('removes files of no result once they are old, never fresh ones', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'keep_00000001', 'x\n');
    const orphan = join(dir, 'tool_results', 'lost_00000002.txt');
    const fresh = join(dir, 'tool_results', 'new_00000003.txt');
    writeFileSync(orphan, 'crashed before its metadata\n');
    writeFileSync(fresh, 'metadata comes next\n');
    const old = new Date(Date.now() - 2 * HOUR);
    utimesSync(orphan, old, old);
    expect((await clean(dir, { olderThan: '1h', dryRun: true })).stdout).toBe(
      `lost_00000002     28 B  files of no result\n[ctxwrap: would remove 1 result (28 B) older than 1h from ${dir}]\n`,
    );
    await new Promise((r) => setTimeout(r, 5));
    await clean(dir, { olderThan: '1ms' });
    expect(files(dir)).toEqual(['new_00000003.txt']);
  });
});

describe('expiry', () => {
  it('list prunes expired results at most once an hour', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'x\n', { startedAt: ago(8 * DAY) });
    writeResult(dir, 'new_00000002', 'y\n');
    expect((await list(dir)).stdout).not.toContain('old_00000001');
    expect(files(dir)).toEqual(['new_00000002.json', 'new_00000002.txt']);
    expect(existsSync(join(dir, '.pruned'))).toBe(true);
    writeResult(dir, 'old_00000003', 'x\n', { startedAt: ago(8 * DAY) });
    await list(dir);
    expect(files(dir)).toContain('old_00000003.json'); // pruned less than an hour ago
  });

  it('counts an expired result nowhere', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'x\n', { startedAt: ago(8 * DAY) });
    writeFileSync(join(dir, '.pruned'), '');
    const stats = await inProcess((print) =>
      showStats({ runDir: dir, json: true, ttlMs: resolveTtl({}), print }),
    );
    expect(JSON.parse(stats.stdout).results).toBe(0);
    expect((await list(dir)).stdout).toBe(`[ctxwrap: no results in ${dir}]\n`);
  });
});
