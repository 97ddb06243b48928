// The run directory is not trusted: nothing planted inside it (a link, a FIFO, forged metadata)
// makes ctxwrap read, print or write anything outside it, and a directory another user owns or
// can write to is refused.
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, onlyId, storedIds, storedMeta, tempDir } from '../support.js';

const SECRET = 'outside-the-run-dir: top secret\n';

/** A run directory with one real result, and a file outside it that must never show. */
async function withResult(status = 3) {
  const runDir = join(tempDir(), 'run');
  await ctxwrap(['-c', `echo stored line; exit ${status}`], { runDir });
  const id = onlyId(runDir);
  const outside = join(tempDir(), 'secret.txt');
  writeFileSync(outside, SECRET);
  const file = (ext: string) => join(runDir, 'tool_results', `${id}${ext}`);
  return { runDir, id, outside, file };
}

describe('links planted inside the run directory are never followed', () => {
  it('show refuses an output that is a link (to /etc/passwd, or elsewhere), and never prints what it points to', async () => {
    const { runDir, id, outside, file } = await withResult();
    unlinkSync(file('.summary.txt'));
    for (const target of ['/etc/passwd', outside]) {
      rmSync(file('.txt'), { force: true });
      symlinkSync(target, file('.txt'));
      const r = await ctxwrap(['show', id], { runDir });
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `ctxwrap: the output of '${id}' in ${runDir} is not a regular file (a link?); not reading it\n`,
      );
    }
  });

  it('show does not print a summary that is a link; it summarises the stored output instead', async () => {
    const { runDir, id, outside, file } = await withResult();
    unlinkSync(file('.summary.txt'));
    symlinkSync(outside, file('.summary.txt'));
    const r = await ctxwrap(['show', id], { runDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^stored line\\n\\[ctxwrap ${id}\\] exit 3 · 1 line · \\d+ms\\n$`));
  });

  it('metadata that is a link, a FIFO, or forged for another id is refused, without hanging', async () => {
    const { runDir, id, outside, file } = await withResult();
    const real = readFileSync(file('.json'), 'utf8');
    writeFileSync(outside, real);
    unlinkSync(file('.json'));
    symlinkSync(outside, file('.json'));
    let r = await ctxwrap(['show', id], { runDir });
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `ctxwrap: the metadata of result '${id}' in ${runDir} is not a regular file (a link?); not reading it\n`,
    );
    unlinkSync(file('.json'));
    execFileSync('mkfifo', [file('.json')]);
    r = await ctxwrap(['show', id], { runDir, timeout: 10_000 });
    expect([r.exitCode, r.timedOut]).toEqual([1, false]);
    unlinkSync(file('.json'));
    writeFileSync(file('.json'), real.replace(`"id": "${id}"`, '"id": "../../etc/passwd"'));
    r = await ctxwrap(['show', id], { runDir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`ctxwrap: the metadata of result '${id}' in ${runDir} is damaged\n`);
  });

  it('read refuses an output that is a link or a FIFO, without hanging', async () => {
    const { runDir, id, outside, file } = await withResult();
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

  it('list shows no note that is a link, and pruning writes no stamp through a link', async () => {
    const { runDir, id, outside } = await withResult();
    symlinkSync(outside, join(runDir, 'tool_results', `${id}.note`));
    const listed = await ctxwrap(['list'], { runDir });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).not.toContain('top secret');
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

  it('a tool_results that is a link is refused by show, as by run', async () => {
    const { runDir, id } = await withResult();
    const moved = join(tempDir(), 'moved');
    renameSync(join(runDir, 'tool_results'), moved);
    symlinkSync(moved, join(runDir, 'tool_results'));
    const r = await ctxwrap(['show', id], { runDir });
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(
      `ctxwrap: run directory ${join(runDir, 'tool_results')} is a symbolic link; ctxwrap does not follow links in its run directory\n`,
    );
  });

  it('appends to no ledger and writes to no last/ that is a link', async () => {
    const { runDir, id, outside } = await withResult(0);
    symlinkSync(outside, join(runDir, 'ledger.jsonl'));
    const opened = await ctxwrap(['open', id], { runDir });
    expect(opened.stdout).toBe('stored line\n');
    expect(readFileSync(outside, 'utf8')).toBe(SECRET);
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

  it('is refused when it is a link another user planted, or when another user owns it (run and show)', async () => {
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

    const { runDir, id } = await withResult();
    chownSync(runDir, 12345, 12345);
    const shown = await ctxwrap(['show', id], { runDir });
    expect([shown.exitCode, shown.stdout]).toEqual([1, '']);
    expect(shown.stderr).toBe(
      `ctxwrap: run directory ${runDir} belongs to another user (uid 12345); use --run-dir\n`,
    );
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
