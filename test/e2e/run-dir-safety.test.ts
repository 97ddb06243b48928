// The run directory is not trusted: nothing planted inside it (a link, a FIFO, forged metadata)
// makes ctxwrap read, print or write anything outside it, and a directory another user owns or
// can write to is refused. Here what takes a process: FIFOs (a hang would stop a test worker),
// read, and `ctxwrap run`; show, list and open are tested in-process in
// unit/run-dir-safety-commands.
import { execFileSync } from 'node:child_process';
import {
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, onlyId, storedIds, storedMeta, tempDir, writeResult } from '../support.js';

const SECRET = 'outside-the-run-dir: top secret\n';

/** A run directory with one stored result, and a file outside it that must never show. */
function withResult() {
  const runDir = join(tempDir(), 'run');
  const id = 'sh_0000000a';
  writeResult(runDir, id, 'stored line\n', { command: ['/bin/sh', '-c', 'echo stored line; exit 0'] });
  const outside = join(tempDir(), 'secret.txt');
  writeFileSync(outside, SECRET);
  const file = (ext: string) => join(runDir, 'tool_results', `${id}${ext}`);
  return { runDir, id, outside, file };
}

describe('links and FIFOs planted inside the run directory', () => {
  it('show refuses metadata that is a FIFO, without hanging', async () => {
    const { runDir, id, file } = withResult();
    unlinkSync(file('.json'));
    execFileSync('mkfifo', [file('.json')]);
    const r = await ctxwrap(['show', id], { runDir, timeout: 10_000 });
    expect([r.exitCode, r.timedOut]).toEqual([1, false]);
  });

  it('read refuses an output that is a link or a FIFO, without hanging', async () => {
    const { runDir, id, outside, file } = withResult();
    rmSync(file('.txt'));
    symlinkSync(outside, file('.txt'));
    let r = await ctxwrap(['read', id], { runDir });
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `ctxwrap: the output of '${id}' in ${runDir} is not a regular file (a link?); not reading it\n`,
    );
    rmSync(file('.txt'));
    execFileSync('mkfifo', [file('.txt')]);
    r = await ctxwrap(['read', id, '--lines', 'grep:x'], { runDir, timeout: 10_000 });
    expect([r.exitCode, r.timedOut]).toEqual([1, false]);
  });

  it('run writes no pruning stamp through a link', async () => {
    const { runDir, outside } = withResult();
    // An old stamp makes the next run prune; the stamp is a link to a file outside.
    const stamp = join(runDir, '.pruned');
    rmSync(stamp, { force: true });
    symlinkSync(outside, stamp);
    const old = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(outside, old, old);
    await ctxwrap(['--', 'echo', 'again'], { runDir });
    expect(readFileSync(outside, 'utf8')).toBe(SECRET);
    expect(lstatSync(stamp).isSymbolicLink()).toBe(false);
  });

  it('run writes to no last/ that is a link', async () => {
    const { runDir } = withResult();
    const planted = tempDir();
    rmSync(join(runDir, 'last'), { recursive: true, force: true });
    symlinkSync(planted, join(runDir, 'last'));
    const again = await ctxwrap(['-c', 'echo stored line; exit 0'], { runDir });
    expect(again.exitCode).toBe(0);
    expect(readdirSync(planted)).toEqual([]);
    expect(storedIds(runDir)).toHaveLength(2);
  });
});

describe('the run directory itself', () => {
  it('may be a link of its own user to a directory that passes the checks', async () => {
    const target = tempDir();
    const link = join(tempDir(), 'link');
    symlinkSync(target, link);
    const r = await ctxwrap(['--', 'echo', 'via link'], { runDir: link });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, 'via link\n', '']);
    expect(storedIds(target)).toHaveLength(1);
  });

  it('is refused by run (which still runs the command) when it is a link another user planted', async () => {
    const target = tempDir();
    const link = join(tempDir(), 'link');
    symlinkSync(target, link);
    lchownSync(link, 12345, 12345);
    const r = await ctxwrap(['--', 'echo', 'x'], { runDir: link });
    expect([r.exitCode, r.stdout]).toEqual([0, 'x\n']);
    expect(r.stderr).toBe(
      `ctxwrap: not storing output (run directory ${link} is a symbolic link owned by another user (uid 12345); use --run-dir); running the command as is\n`,
    );
    expect(storedIds(target)).toEqual([]);
  });

  it('keeps the modes: run directory 0700, results 0600, and a new tool_results is 0700', async () => {
    const runDir = join(tempDir(), 'fresh');
    mkdirSync(runDir, { mode: 0o700 });
    await ctxwrap(['--', 'echo', 'x'], { runDir });
    const id = onlyId(runDir);
    expect(storedMeta(runDir, id).state).toBe('complete');
    const modes = execFileSync('stat', [
      '-c',
      '%a %n',
      runDir,
      join(runDir, 'tool_results'),
      join(runDir, 'tool_results', `${id}.txt`),
    ])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ')[0]);
    expect(modes).toEqual(['700', '700', '600']);
  });
});
