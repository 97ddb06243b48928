// Configuration fails open on the path every wrapped command takes: a bad CTXWRAP_* value or a
// deleted working directory never stops the command (one warning line, the default used), while
// a bad flag typed on the command line is still exit 2. Durations beyond what a Node timer holds
// are refused, never turned into 1 ms or an immediate kill.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ctxwrap, onlyId, storedIds, storedMeta, storedOutput, tempDir } from '../support.js';

const DURATION = 'takes a duration such as 500ms, 30s, 5m, 2h or 7d';
const TOO_LONG = 'takes at most 24d (the longest a timer holds, about 24.8 days)';

describe('a bad CTXWRAP_* value: one warning, the default, the command runs', () => {
  it.each([
    ['CTXWRAP_TIMEOUT', '10min', `CTXWRAP_TIMEOUT ${DURATION} (got '10min'); using no timeout`],
    ['CTXWRAP_TIMEOUT', '30d', `CTXWRAP_TIMEOUT ${TOO_LONG} (got '30d'); using no timeout`],
    [
      'CTXWRAP_BUDGET',
      'abc',
      "CTXWRAP_BUDGET takes a whole number at least 200 (got 'abc'); using the default 2650",
    ],
    [
      'CTXWRAP_TAIL_RATIO',
      '2',
      "CTXWRAP_TAIL_RATIO takes a number from 0 to 1 (got '2'); using the default 0.7",
    ],
    ['CTXWRAP_KILL_GRACE', '25d', `CTXWRAP_KILL_GRACE ${TOO_LONG} (got '25d'); using the default 3s`],
    ['CTXWRAP_DRAIN', '1000d', `CTXWRAP_DRAIN ${TOO_LONG} (got '1000d'); using the default 100ms`],
    ['CTXWRAP_STDIN_WAIT', 'soon', `CTXWRAP_STDIN_WAIT ${DURATION} (got 'soon'); using the default 2s`],
  ])('%s=%s', async (name, value, message) => {
    const runDir = join(tempDir(), 'run');
    const r = await ctxwrap(['--', 'sh', '-c', 'sleep 0.2; echo hi'], { runDir, env: { [name]: value } });
    expect(r.stderr).toBe(`ctxwrap: ${message} and running the command\n`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^hi\n/);
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe('hi\n');
  });

  it.each(['/nonexistent', '/tmp', 'no-such-shell-ctxwrap'])(
    'CTXWRAP_SHELL=%s: /bin/sh runs the command, after one warning (issue 20)',
    async (shell) => {
      const runDir = join(tempDir(), 'run');
      const r = await ctxwrap(['-c', 'echo hi'], { runDir, env: { CTXWRAP_SHELL: shell } });
      expect(r.stderr).toBe(
        `ctxwrap: CTXWRAP_SHELL names no program that can run (got '${shell}'); using /bin/sh and running the command\n`,
      );
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^hi\n/);
    },
  );

  it('uses the default in place of the bad value', async () => {
    const print = 'i=0; while [ $i -lt 300 ]; do echo "line $i of a long output"; i=$((i+1)); done';
    const bad = await ctxwrap(['-c', print], {
      runDir: join(tempDir(), 'run'),
      env: { CTXWRAP_BUDGET: '1e3' },
    });
    const good = await ctxwrap(['-c', print], {
      runDir: join(tempDir(), 'run'),
      env: { CTXWRAP_BUDGET: '3000' },
    });
    expect(bad.exitCode).toBe(0);
    const body = (s: string) => s.replace(/^\[ctxwrap [^\]]*\].*\n/gm, '');
    expect(body(bad.stdout as string)).toBe(body(good.stdout as string));
  });

  it('several bad values give one line each, and the command still runs', async () => {
    const runDir = join(tempDir(), 'run');
    const r = await ctxwrap(['-c', 'echo ok'], {
      runDir,
      env: { CTXWRAP_TIMEOUT: 'x', CTXWRAP_BUDGET: 'y' },
    });
    expect(r.exitCode).toBe(0);
    expect((r.stderr as string).split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^ctxwrap: CTXWRAP_BUDGET .*running the command$/),
      expect.stringMatching(/^ctxwrap: CTXWRAP_TIMEOUT .*running the command$/),
    ]);
  });
});

describe('a bad flag is still exit 2, and nothing runs', () => {
  it.each([
    [['--timeout', '25d'], `--timeout ${TOO_LONG} (got '25d')`],
    [['--timeout', '10min'], `--timeout ${DURATION} (got '10min')`],
    [['--budget', 'abc'], "--budget takes a whole number at least 200 (got 'abc')"],
  ])('%j', async (flags, message) => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const r = await ctxwrap([...flags, '--', 'touch', marker], { runDir: join(dir, 'run') });
    expect(r).toMatchObject({ exitCode: 2, stdout: '', stderr: `ctxwrap: ${message}\n` });
    expect(existsSync(marker)).toBe(false);
  });

  it('a flag wins over a bad variable without a warning', async () => {
    const runDir = join(tempDir(), 'run');
    const r = await ctxwrap(['--timeout', '5s', '--', 'echo', 'hi'], {
      runDir,
      env: { CTXWRAP_TIMEOUT: '10min' },
    });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
  });

  it('the longest duration a timer holds is accepted, and does not kill the command', async () => {
    const runDir = join(tempDir(), 'run');
    const r = await ctxwrap(['--timeout', '24d', '--', 'sh', '-c', 'sleep 0.2; echo hi'], { runDir });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout).toMatch(/^hi\n/);
  });
});

describe('a deleted working directory', () => {
  const inDeletedDir = (args: string) => {
    const dir = tempDir();
    const runDir = join(dir, 'run');
    const r = spawnSync('/bin/sh', ['-c', `mkdir d && cd d && rmdir ../d && exec node "$0" ${args}`, BIN], {
      cwd: dir,
      env: cleanEnv(runDir),
      encoding: 'utf8',
    });
    return { ...r, runDir };
  };

  it('runs the command, stores its output, and says nothing of uv_cwd', () => {
    const ls = inDeletedDir('-- ls');
    expect(ls).toMatchObject({ status: 0, stderr: '', stdout: '' });
    expect(storedIds(ls.runDir)).toEqual([expect.stringMatching(/^ls_/)]);
    const r = inDeletedDir('-- echo listed');
    expect(r).toMatchObject({ status: 0, stderr: '', stdout: 'listed\n' });
    const id = onlyId(r.runDir);
    expect(storedOutput(r.runDir, id).toString()).toBe('listed\n');
    expect(storedMeta(r.runDir, id).cwd).toBe('.');
  });

  it('runs a shell string too, and keeps its exit status', () => {
    const r = inDeletedDir("-c 'echo here; exit 3'");
    expect(r.stderr).toBe('');
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('here\n');
    expect(r.stdout).not.toMatch(/uv_cwd|internal error/);
  });

  it('with a relative run directory that cannot be reached, still runs the command', () => {
    const dir = tempDir();
    const r = spawnSync(
      '/bin/sh',
      ['-c', 'mkdir d && cd d && rmdir ../d && exec node "$0" -- echo hi', BIN],
      {
        cwd: dir,
        env: cleanEnv('rel-run'),
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('hi\n');
    expect(r.stderr).toMatch(/^ctxwrap: not storing output \(.*\); running the command as is\n$/);
    expect(r.stderr).not.toMatch(/uv_cwd|internal error/);
  });
});

describe('a mistyped subcommand', () => {
  it('is named, with the subcommand meant, and is not silently run as a command', async () => {
    const runDir = join(tempDir(), 'run');
    const r = await ctxwrap(['serach', 'connection refused'], { runDir });
    expect(r.stderr).toBe("ctxwrap: 'serach' is not a command on PATH; did you mean 'ctxwrap search'?\n");
    expect(r.exitCode).toBe(127);
    const lsit = await ctxwrap(['lsit'], { runDir });
    expect(lsit.stderr).toBe("ctxwrap: 'lsit' is not a command on PATH; did you mean 'ctxwrap list'?\n");
  });

  it('still runs a real command of that name, with no hint', async () => {
    const dir = tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'serach'), '#!/bin/sh\necho "real serach $*"\n');
    chmodSync(join(bin, 'serach'), 0o755);
    const runDir = join(dir, 'run');
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const r = await ctxwrap(['serach', 'x'], { runDir, env });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout).toMatch(/^real serach x\n/);
  });

  it('gives no hint for a word far from every subcommand', async () => {
    const r = await ctxwrap(['no-such-command-ctxwrap'], { runDir: join(tempDir(), 'run') });
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toBe('');
  });
});

describe('--run-dir is accepted by every subcommand', () => {
  it.each([
    [['prompt']],
    [['completion', 'bash']],
    [['init', 'claude', '--uninstall']],
    [['list']],
    [['stats']],
  ])('%j', async (args) => {
    const dir = tempDir();
    const runDir = join(dir, 'run');
    const plain = await ctxwrap(args, { runDir, cwd: dir });
    const before = await ctxwrap(['--run-dir', runDir, ...args], { runDir, cwd: dir });
    const after = await ctxwrap([...args, '--run-dir', runDir], { runDir, cwd: dir });
    expect(plain.exitCode).toBe(0);
    for (const r of [before, after])
      expect(r).toMatchObject({ exitCode: 0, stdout: plain.stdout, stderr: '' });
  });

  it('hook takes it as the run directory of its sessions', () => {
    const dir = tempDir();
    const runDir = join(dir, 'elsewhere');
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' });
    const envFile = join(dir, 'env.sh');
    const r = spawnSync('node', [BIN, 'hook', 'claude', '--run-dir', runDir], {
      input,
      env: cleanEnv(join(dir, 'run'), { CLAUDE_ENV_FILE: envFile }),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(storedIds(runDir)).toEqual([]);
    expect(readFileSync(envFile, 'utf8')).toContain(join(runDir, 'sessions', 's1'));
  });
});
