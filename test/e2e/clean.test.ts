// `ctxwrap clean` and expiry as a process: the CLI's wiring, a real writer still running, and
// pruning from `ctxwrap run`. Their logic is tested in-process in unit/clean-command.
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ago, ctxwrap, script, startRunning, stored, tempDir, writeResult } from '../support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const files = (dir: string) => readdirSync(join(dir, 'tool_results')).sort();

describe('ctxwrap clean', () => {
  it('takes --older-than, --dry-run and CTXWRAP_TTL from the command line', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'three_00000001', 'x\n', { startedAt: ago(3 * HOUR) });
    writeResult(dir, 'one_00000002', 'y\n', { startedAt: ago(HOUR) });
    const dry = await ctxwrap(['clean', '--dry-run', '--run-dir', dir], { env: { CTXWRAP_TTL: '2h' } });
    expect(dry.stdout).toMatch(
      /^three_00000001 .*\n\[ctxwrap: would remove 1 result \(.+\) older than 2h from /,
    );
    expect(files(dir)).toHaveLength(4);
    const r = await ctxwrap(['clean', '--older-than', '30m', '--run-dir', dir], {
      env: { CTXWRAP_TTL: '7d' },
    });
    expect(r.stdout).toMatch(/^\[ctxwrap: removed 2 results \(.+\) older than 30m from /);
    expect(await ctxwrap(['clean', '--older-than', 'later', '--run-dir', dir])).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: --older-than takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'later')\n",
    });
  });

  it('never removes a result a running ctxwrap is still writing, even with --older-than 1ms or --all', async () => {
    const dir = join(tempDir(), 'run');
    const done = await stored(dir, [process.execPath, script('numbered-lines.mjs'), '3']);
    const run = await startRunning(dir);
    const id = run.id;
    const mine = () => files(dir).filter((f) => f.startsWith(`${id}.`));
    expect(mine()).toEqual([`${id}.json`, `${id}.txt`]);
    await new Promise((r) => setTimeout(r, 20));
    const clean = await ctxwrap(['clean', '--older-than', '1ms', '--run-dir', dir]);
    expect(clean.stdout).toMatch(
      new RegExp(
        `^\\[ctxwrap: removed 1 result \\(.+\\) older than 1ms from ${dir}; kept 1 still running\\]\\n$`,
      ),
    );
    expect(files(dir).some((f) => f.startsWith(done))).toBe(false);
    const all = await ctxwrap(['clean', '--all', '--run-dir', dir]);
    expect(all.stdout).toBe(`[ctxwrap: removed 0 results (0 B) from ${dir}; kept 1 still running]\n`);
    expect(mine()).toEqual([`${id}.json`, `${id}.txt`]);
    run.child.kill('SIGTERM');
    expect((await run.child).exitCode).toBe(0);
    expect((await ctxwrap(['read', '--run-dir', dir, id])).stdout).toBe('1: started\n2: stopped\n');
  });
});

describe('expiry', () => {
  it('ctxwrap run prunes expired results once the last pruning is an hour old', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'x\n', { startedAt: ago(8 * DAY) });
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '1']);
    expect(files(dir)).not.toContain('old_00000001.json');
    writeResult(dir, 'old_00000003', 'x\n', { startedAt: ago(8 * DAY) });
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '1']);
    expect(files(dir)).toContain('old_00000003.json'); // pruned less than an hour ago
    const stale = new Date(Date.now() - 2 * HOUR);
    utimesSync(join(dir, '.pruned'), stale, stale);
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '1']);
    expect(files(dir)).not.toContain('old_00000003.json');
  });
});
