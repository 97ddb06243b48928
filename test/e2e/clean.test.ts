import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/format.js';
import { ago, ctxwrap, script, startRunning, stored, tempDir, writeResult } from '../support.js';

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

describe('ctxwrap clean', () => {
  it('removes results older than the time to live, all their files, and keeps the rest', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'a\n'.repeat(500), { startedAt: ago(8 * DAY) });
    writeFileSync(join(dir, 'tool_results', 'old_00000001.note'), 'a note\n');
    writeFileSync(join(dir, 'tool_results', 'old_00000001.summary.txt'), 'summary\n');
    writeResult(dir, 'new_00000002', 'b\n', { startedAt: ago(HOUR) });
    const dry = await ctxwrap(['clean', '--dry-run', '--run-dir', dir]);
    const size = sizeOf(dir, 'old_00000001');
    expect(dry).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: `old_00000001  ${size.padStart(7)}  8d   make all\n[ctxwrap: would remove 1 result (${size}) older than 7d from ${dir}]\n`,
    });
    expect(files(dir)).toHaveLength(6);
    expect(await ctxwrap(['clean', '--run-dir', dir])).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: `[ctxwrap: removed 1 result (${size}) older than 7d from ${dir}]\n`,
    });
    expect(files(dir)).toEqual(['new_00000002.json', 'new_00000002.txt']);
    expect((await ctxwrap(['clean', '--run-dir', dir])).stdout).toBe(
      `[ctxwrap: nothing older than 7d in ${dir}]\n`,
    );
  });

  it('takes the age from --older-than, else CTXWRAP_TTL', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'three_00000001', 'x\n', { startedAt: ago(3 * HOUR) });
    writeResult(dir, 'one_00000002', 'y\n', { startedAt: ago(HOUR) });
    expect((await ctxwrap(['clean', '--run-dir', dir], { env: { CTXWRAP_TTL: '4h' } })).stdout).toBe(
      `[ctxwrap: nothing older than 4h in ${dir}]\n`,
    );
    const three = sizeOf(dir, 'three_00000001');
    expect((await ctxwrap(['clean', '--run-dir', dir], { env: { CTXWRAP_TTL: '2h' } })).stdout).toBe(
      `[ctxwrap: removed 1 result (${three}) older than 2h from ${dir}]\n`,
    );
    const one = sizeOf(dir, 'one_00000002');
    expect(
      (await ctxwrap(['clean', '--older-than', '30m', '--run-dir', dir], { env: { CTXWRAP_TTL: '7d' } }))
        .stdout,
    ).toBe(`[ctxwrap: removed 1 result (${one}) older than 30m from ${dir}]\n`);
    expect(await ctxwrap(['clean', '--older-than', 'later', '--run-dir', dir])).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: "ctxwrap: --older-than takes a duration such as 500ms, 30s, 5m, 2h or 7d (got 'later')\n",
    });
  });

  it('never removes a result still being written, even with --older-than 1ms or --all', async () => {
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

  it('--all removes every result and the run directory, and nothing that is not ctxwrap’s', async () => {
    const dir = join(tempDir(), 'run');
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '3']);
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '4']);
    expect(existsSync(join(dir, 'last'))).toBe(true);
    const all = await ctxwrap(['clean', '--all', '--run-dir', dir]);
    expect(all.stdout).toMatch(new RegExp(`^\\[ctxwrap: removed 2 results \\(.+\\) from ${dir}\\]\\n$`));
    expect(existsSync(dir)).toBe(false);

    const shared = join(tempDir(), 'run');
    await stored(shared, [process.execPath, script('numbered-lines.mjs'), '3']);
    writeFileSync(join(shared, 'notes.md'), 'mine\n');
    writeFileSync(join(shared, 'tool_results', 'README'), 'mine too\n');
    await ctxwrap(['clean', '--all', '--run-dir', shared]);
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
    const r = await ctxwrap(['clean', '--older-than', '1h', '--dry-run', '--run-dir', dir]);
    expect(r.stdout).toBe(
      `lost_00000002     28 B  files of no result\n[ctxwrap: would remove 1 result (28 B) older than 1h from ${dir}]\n`,
    );
    await ctxwrap(['clean', '--older-than', '1ms', '--run-dir', dir]);
    expect(files(dir)).toEqual(['new_00000003.txt']);
  });
});

describe('expiry', () => {
  it('prunes expired results at most once an hour, from list and from run', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'x\n', { startedAt: ago(8 * DAY) });
    writeResult(dir, 'new_00000002', 'y\n');
    expect((await ctxwrap(['list', '--run-dir', dir])).stdout).not.toContain('old_00000001');
    expect(files(dir)).toEqual(['new_00000002.json', 'new_00000002.txt']);
    expect(existsSync(join(dir, '.pruned'))).toBe(true);

    writeResult(dir, 'old_00000003', 'x\n', { startedAt: ago(8 * DAY) });
    await ctxwrap(['list', '--run-dir', dir]);
    expect(files(dir)).toContain('old_00000003.json'); // pruned less than an hour ago
    const stale = new Date(Date.now() - 2 * HOUR);
    utimesSync(join(dir, '.pruned'), stale, stale);
    await stored(dir, [process.execPath, script('numbered-lines.mjs'), '1']);
    expect(files(dir)).not.toContain('old_00000003.json');
  });

  it('counts an expired result nowhere', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'old_00000001', 'x\n', { startedAt: ago(8 * DAY) });
    writeFileSync(join(dir, '.pruned'), '');
    const stats = JSON.parse((await ctxwrap(['stats', '--json', '--run-dir', dir])).stdout);
    expect(stats.results).toBe(0);
    expect((await ctxwrap(['list', '--run-dir', dir])).stdout).toBe(`[ctxwrap: no results in ${dir}]\n`);
  });
});
