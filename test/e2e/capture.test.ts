// Issue 10: the command writes the result file itself (stdout and stderr one descriptor), and
// ctxwrap follows it. Exact order, background writers, process groups, Ctrl-C, a full disk.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  canMount,
  cleanEnv,
  ctxwrap,
  killQuietly,
  mountTmpfs,
  onlyId,
  processGone,
  readPid,
  script,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

describe.concurrent('one descriptor for stdout and stderr', () => {
  it('keeps the exact order of 3,000 alternating stdout and stderr lines', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(
      ['-c', 'i=1; while [ $i -le 3000 ]; do echo "out $i"; echo "err $i" >&2; i=$((i + 1)); done'],
      { runDir },
    );
    expect(r.exitCode).toBe(0);
    const expected = Array.from({ length: 3000 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join('');
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe(expected);
    expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({ bytes: expected.length, lines: 6000 });
  });

  it("`ctxwrap -- ''` is 127, as a shell says for an empty command name", async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', ''], { runDir });
    expect(r.exitCode).toBe(127);
    expect(r.stdout).toMatch(/exit 127 \(command not found: ''\)/);
    expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({ endReason: 'not-found', exitCode: 127 });
  });
});

describe('a command that reopens its output (`> /dev/stdout`)', () => {
  it('truncates nothing: the file holds every byte (the old file it wrote itself lost what came before)', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(
      ['-c', "printf 'a long first line\\n'; sleep 0.5; echo x > /dev/stdout; exit 1"],
      {
        runDir,
      },
    );
    expect(r.exitCode).toBe(1);
    const id = onlyId(runDir);
    expect(storedOutput(runDir, id).toString()).toBe('a long first line\nx\n');
    expect(storedMeta(runDir, id).cutShort).toBeUndefined();
  });
});

describe('a background writer', () => {
  it('is still alive after ctxwrap exits, and its later lines land in the file', async () => {
    const runDir = tempDir();
    const pidFile = join(tempDir(), 'pid');
    const loop = `i=1; while [ $i -le 8 ]; do echo "tick $i"; sleep 0.3; i=$((i + 1)); done`;
    try {
      const r = await ctxwrap(['-c', `sh -c '${loop}' & echo $! > ${pidFile}; echo started`], { runDir });
      expect(r.exitCode).toBe(0);
      const id = onlyId(runDir);
      const pid = readPid(pidFile);
      expect(processGone(pid)).toBe(false);
      expect(storedOutput(runDir, id).toString()).not.toContain('tick 8');
      // Neither killed nor cut off (no SIGPIPE): it prints all 8 ticks into the result file.
      await waitFor(() => storedOutput(runDir, id).toString().includes('tick 8\n'));
      const ticks = storedOutput(runDir, id)
        .toString()
        .match(/^tick \d+$/gm);
      expect(ticks).toEqual(Array.from({ length: 8 }, (_, i) => `tick ${i + 1}`));
      expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', exitCode: 0 });
    } finally {
      if (existsSync(pidFile)) killQuietly(readPid(pidFile));
    }
  });
});

describe('process groups and signals', () => {
  it('a kill of ctxwrap’s process group reaches the command: no process is left', async () => {
    const runDir = tempDir();
    const pidFile = join(tempDir(), 'pid');
    const bgFile = join(tempDir(), 'bg');
    // ctxwrap in a process group of its own, as a harness starts a tool it may have to stop.
    const wrapper = spawn(
      'node',
      [BIN, '-c', `(sleep 60; echo never) & echo $! > ${bgFile}; echo $$ > ${pidFile}; sleep 60`],
      { env: cleanEnv(runDir), stdio: 'ignore', detached: true },
    );
    const exited = new Promise((resolve) => wrapper.on('exit', resolve));
    try {
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
      await waitFor(() => storedIds(runDir).length === 1);
      const command = readPid(pidFile);
      const background = readPid(bgFile);
      expect(processGone(command)).toBe(false);
      expect(processGone(background)).toBe(false);
      process.kill(-(wrapper.pid as number), 'SIGKILL');
      await exited;
      // Gone, not merely orphaned (at most a zombie until init reaps it): the command and
      // what it started in the background.
      await waitFor(() => processGone(command) && processGone(background), 5000);
      expect(processGone(wrapper.pid as number)).toBe(true);
    } finally {
      try {
        process.kill(-(wrapper.pid as number), 'SIGKILL');
      } catch {
        /* gone, as it should be */
      }
    }
  });

  it('Ctrl-C at a terminal reaches the command once', async () => {
    const runDir = tempDir();
    const dir = tempDir();
    // A pty of our own (python3's pty module): ctxwrap and the command in its foreground group.
    const driver = `
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("node", ["node", sys.argv[1], "--", "node", sys.argv[2], sys.argv[3]])
deadline = time.time() + 30
while not os.path.exists(os.path.join(sys.argv[3], "ready")) and time.time() < deadline:
    time.sleep(0.02)
time.sleep(0.2)
os.write(fd, b"\\x03")
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
`;
    const r = await execa('python3', ['-c', driver, BIN, script('count-sigint.mjs'), dir], {
      env: cleanEnv(runDir),
      extendEnv: false,
      reject: false,
    });
    expect(readFileSync(join(dir, 'count'), 'utf8')).toBe('1');
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/exit 3 \(interrupted by SIGINT\)/);
  });
});

describe('a disk that fills up mid-run', () => {
  it('ctxwrap’s writes fail, never the command’s: the summary, the metadata and one line say the output stops short', async () => {
    const runDir = tempDir();
    // No free-space floor: the disk fills up for real.
    const env = { CTXWRAP_MIN_FREE: '0' };
    if (!canMount()) {
      // No tmpfs here: a file size limit stops ctxwrap's writes the same way.
      const r = await execa('/bin/sh', ['-c', `ulimit -f 64; exec node "${BIN}" -- seq 1 100000`], {
        env: cleanEnv(runDir, env),
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode).toBe(0);
      expect(storedMeta(runDir, onlyId(runDir)).cutShort).toMatch(/^stored only \d+ of 588895 bytes/);
      return;
    }
    mountTmpfs(runDir, '2m');
    const r = await ctxwrap(['-c', 'seq 1 1000000; echo "status $?" >&2; exit 7'], { runDir, env });
    // The command ran on (it writes into a pipe) and its exit status comes back unchanged.
    expect(r.exitCode).toBe(7);
    const id = onlyId(runDir);
    const stored = storedOutput(runDir, id);
    const meta = storedMeta(runDir, id);
    expect(stored.length).toBeGreaterThan(1_000_000);
    expect(stored.length).toBeLessThan(2_100_000);
    const seq = Buffer.from(`${Array.from({ length: 400_000 }, (_, i) => i + 1).join('\n')}\n`);
    expect(stored.equals(seq.subarray(0, stored.length))).toBe(true);
    expect(meta).toMatchObject({
      state: 'complete',
      exitCode: 7,
      bytes: 6_888_905,
      storedBytes: stored.length,
      cutShort: `stored only ${stored.length} of 6888905 bytes: no space left on device`,
    });
    expect(r.stdout).toMatch(
      /^\[ctxwrap seq_[0-9a-f]{8}\] exit 7 \(output cut short: stored only [\d.]+ MB of 6.9 MB\) · /,
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `^ctxwrap: stored only [\\d.]+ MB of the 6.9 MB output of ${id} \\(no space left on device\\); the summary above is of the whole output\\n$`,
      ),
    );
  });
});

describe('the run directory replaced by a file while the command runs', () => {
  it('says nothing was stored, never that the output is stored', async () => {
    const runDir = join(tempDir(), 'run');
    const child = ctxwrap(['--', script('slow-lines.sh'), '30'], { runDir });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('tick 3\n'),
    );
    const id = onlyId(runDir);
    rmSync(runDir, { recursive: true, force: true });
    writeFileSync(runDir, 'in the way\n');
    const r = await child;
    expect(r.exitCode).toBe(0);
    const ticks = Array.from({ length: 30 }, (_, i) => `tick ${i + 1}\n`).join('');
    expect(r.stdout).toBe(ticks);
    expect(r.stderr).not.toContain('is stored but');
    expect(r.stderr).toMatch(
      new RegExp(
        `^ctxwrap: the run directory was removed while ${id} ran and could not be made again \\(.*\\); nothing of its output is stored, the summary above is of the whole output\\n$`,
      ),
    );
    expect(readFileSync(runDir, 'utf8')).toBe('in the way\n');
  });
});
