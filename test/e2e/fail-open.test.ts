// Fail open: when the run directory cannot be used, the command still runs, its output comes
// through as it printed it, one line says why nothing (or not everything) was stored, and the
// exit status is the command's. Every case makes the path unusable in a way that holds for root.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  canMount,
  ctxwrap,
  mountTmpfs,
  onlyId,
  remountReadOnly,
  script,
  sh,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

const NOT_STORING = (why: string) => `ctxwrap: not storing output (${why}); running the command as is\n`;

/** Runs mixed.sh (stdout and stderr lines, exit 5) with the run directory at `runDir`. */
async function mixedAt(runDir: string) {
  const r = await ctxwrap(['--', script('mixed.sh')], { runDir });
  expect(r.exitCode).toBe(5);
  expect(r.stdout).toBe('out 1\nout 2\n');
  return r.stderr as string;
}

describe('nothing can be stored: the command runs as is', () => {
  it('a regular file where the run directory must be', async () => {
    const runDir = join(tempDir(), 'file');
    writeFileSync(runDir, 'in the way\n');
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`run directory ${runDir} is not a directory (a file is in the way)`)}err 1\nerr 2\n`,
    );
    expect(readFileSync(runDir, 'utf8')).toBe('in the way\n');
  });

  it('a regular file where tool_results must be', async () => {
    const runDir = tempDir();
    writeFileSync(join(runDir, 'tool_results'), '');
    const results = join(runDir, 'tool_results');
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`run directory ${results} is not a directory (a file is in the way)`)}err 1\nerr 2\n`,
    );
  });

  it('a regular file where a parent of the run directory must be', async () => {
    const parent = join(tempDir(), 'parent');
    writeFileSync(parent, '');
    const runDir = join(parent, 'run');
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`cannot create run directory ${runDir}: a file is in the way`)}err 1\nerr 2\n`,
    );
  });

  it('a read-only file system (tmpfs remounted ro), empty or with tool_results already there', async () => {
    if (!canMount()) {
      // Mounting is refused here: assert the refusal a root-proof obstacle gives instead.
      const runDir = join(tempDir(), 'file');
      writeFileSync(runDir, '');
      expect(await mixedAt(runDir)).toBe(
        `${NOT_STORING(`run directory ${runDir} is not a directory (a file is in the way)`)}err 1\nerr 2\n`,
      );
      return;
    }
    const empty = tempDir();
    mountTmpfs(empty, '64k');
    remountReadOnly(empty);
    expect(await mixedAt(empty)).toBe(
      `${NOT_STORING(`cannot create run directory ${join(empty, 'tool_results')}: read-only file system`)}err 1\nerr 2\n`,
    );
    const nested = join(empty, 'a', 'b');
    expect(await mixedAt(nested)).toBe(
      `${NOT_STORING(`cannot create run directory ${join(empty, 'a')}: read-only file system`)}err 1\nerr 2\n`,
    );
    const used = tempDir();
    mountTmpfs(used, '64k');
    await ctxwrap(['--', 'echo', 'first'], { runDir: used });
    expect(storedIds(used)).toHaveLength(1);
    remountReadOnly(used);
    expect(await mixedAt(used)).toBe(
      `${NOT_STORING(`cannot write to ${join(used, 'tool_results')}: read-only file system`)}err 1\nerr 2\n`,
    );
    expect(storedIds(used)).toHaveLength(1);
  });

  it('a run directory owned by another user', async () => {
    const runDir = tempDir();
    chownSync(runDir, 12345, 12345);
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`run directory ${runDir} belongs to another user (uid 12345); use --run-dir`)}err 1\nerr 2\n`,
    );
  });

  it('a run directory, or tool_results, writable by others', async () => {
    const runDir = tempDir();
    chmodSync(runDir, 0o777);
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`run directory ${runDir} is writable by others (mode 0777); chmod 700 it or use --run-dir`)}err 1\nerr 2\n`,
    );
    chmodSync(runDir, 0o700);
    mkdirSync(join(runDir, 'tool_results'), { mode: 0o700 });
    chmodSync(join(runDir, 'tool_results'), 0o770);
    expect(await mixedAt(runDir)).toMatch(
      /^ctxwrap: not storing output \(run directory .*tool_results is writable by others \(mode 0770\)/,
    );
  });

  it('a tool_results that is a symbolic link, even to a directory of its own', async () => {
    const runDir = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(runDir, 'tool_results'));
    expect(await mixedAt(runDir)).toBe(
      `${NOT_STORING(`run directory ${join(runDir, 'tool_results')} is a symbolic link; ctxwrap does not follow links in its run directory`)}err 1\nerr 2\n`,
    );
  });

  it('passes stdin through for `ctxwrap -`, and the exit status of a command not found', async () => {
    const runDir = join(tempDir(), 'file');
    writeFileSync(runDir, '');
    const piped = await ctxwrap(['-'], { runDir, input: 'piped body\n' });
    expect([piped.exitCode, piped.stdout]).toEqual([0, 'piped body\n']);
    const missing = await ctxwrap(['--', 'no-such-command-ctxwrap'], { runDir });
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toMatch(/\nctxwrap: command not found: no-such-command-ctxwrap\n$/);
  });
});

describe('storing stops mid-capture: the summary, and one line saying how much was stored', () => {
  /** The output of `seq 1 100000`, to compare the stored prefix with. */
  const SEQ = Buffer.from(`${Array.from({ length: 100_000 }, (_, i) => i + 1).join('\n')}\n`);

  function expectStoredPrefix(runDir: string, stderr: string, why: string) {
    const id = onlyId(runDir);
    const stored = storedOutput(runDir, id);
    expect(stored.length).toBeLessThan(SEQ.length);
    expect(stored.equals(SEQ.subarray(0, stored.length))).toBe(true);
    const line = new RegExp(
      `^ctxwrap: stored only [\\d.]+ kB of the 589 kB output of ${id} \\(${why}\\); the summary above is of the whole output\\n$`,
    );
    expect(stderr).toMatch(line);
    expect(storedMeta(runDir, id)).toMatchObject({
      state: 'complete',
      bytes: SEQ.length,
      storedBytes: stored.length,
    });
  }

  /** The header says the output was cut: every view does (issue 20 #17). */
  const HEADER =
    /^\[ctxwrap seq_[0-9a-f]{8}\] exit 0 \(output cut short: stored only [\d.]+ kB of 589 kB\) · 100,000 lines · 589 kB/;

  /** `seq 1 100000` under a file size limit of 32 kB (ulimit -f 64): holds for root, needs no mount. */
  async function underFileSizeLimit(runDir: string) {
    const r = await sh(`ulimit -f 64; exec node "${BIN}" -- seq 1 100000`, { runDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(HEADER);
    expect(r.stdout).toMatch(/\n100000\n$/);
    expectStoredPrefix(runDir, r.stderr, 'file size limit exceeded \\(ulimit -f\\)');
  }

  it('a full file system (a 64 kB tmpfs; a file size limit where mounting is refused)', async () => {
    const runDir = tempDir();
    if (!canMount()) return underFileSizeLimit(runDir);
    mountTmpfs(runDir, '64k');
    // No free-space floor: the file system fills up for real.
    const r = await ctxwrap(['--', 'seq', '1', '100000'], { runDir, env: { CTXWRAP_MIN_FREE: '0' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(HEADER);
    expect(r.stdout).toMatch(/\n100000\n$/);
    expectStoredPrefix(runDir, r.stderr as string, 'no space left on device');
  });

  it('a file size limit (ulimit -f)', () => underFileSizeLimit(tempDir()));

  it('a file system already full at the start: the summary, and a line saying nothing was stored', async () => {
    const runDir = tempDir();
    if (canMount()) {
      mountTmpfs(runDir, '64k');
      await ctxwrap(['--', 'true'], { runDir });
      spawnSync('dd', ['if=/dev/zero', `of=${join(runDir, 'filler')}`, 'bs=4k', 'count=64']);
    }
    const r = canMount()
      ? await ctxwrap(['--', script('mixed.sh')], { runDir, env: { CTXWRAP_MIN_FREE: '0' } })
      : await sh(`ulimit -f 0; exec node "${BIN}" -- "${script('mixed.sh')}"`, { runDir });
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toMatch(
      /^out 1\nerr 1\nout 2\nerr 2\n\[ctxwrap mixed_[0-9a-f]{8}\] exit 5 \(output cut short: stored only 0 B of 24 B\) · 4 lines · \S+\n$/,
    );
    expect(r.stderr).toMatch(
      /^ctxwrap: nothing of the 24 B output of mixed_[0-9a-f]{8} was stored \((no space left on device|file size limit exceeded \(ulimit -f\))\); the summary above is of the whole output\n$/,
    );
  });

  it('the run directory removed while the command runs: made again, every byte kept', async () => {
    const runDir = join(tempDir(), 'run');
    const child = ctxwrap(['--', script('slow-lines.sh'), '30'], { runDir });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('tick 3\n'),
    );
    const id = onlyId(runDir);
    rmSync(runDir, { recursive: true, force: true });
    const r = await child;
    expect(r.exitCode).toBe(0);
    const ticks = Array.from({ length: 30 }, (_, i) => `tick ${i + 1}\n`).join('');
    expect(storedOutput(runDir, id).toString()).toBe(ticks);
    expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', bytes: ticks.length });
    expect(r.stderr).toBe(
      `ctxwrap: the run directory was removed while ${id} ran; made it again and stored the output\n`,
    );
    expect(r.stdout).toBe(ticks);
    const shown = await ctxwrap(['show', id], { runDir });
    expect(shown.stdout).toBe(r.stdout);
  });
});
