// Never hang: a background process holding the output, a command that ignores SIGTERM (and its
// process group), and a program waiting for input on a stdin nobody writes to or closes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  ctxwrap,
  killQuietly,
  onlyId,
  processGone,
  readPid,
  script,
  sh,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

/** Runs `fn`, then kills whatever pid the fixture left in `pidFile` (if the test failed early). */
async function withPidFile(fn: (pidFile: string) => Promise<void>): Promise<void> {
  const pidFile = join(tempDir(), 'pid');
  try {
    await fn(pidFile);
  } finally {
    if (existsSync(pidFile)) killQuietly(readPid(pidFile));
  }
}

describe('a background process that keeps writing to the output', () => {
  it('a double-forked daemon in a session of its own: done when the command exits; its later lines land in the file', () =>
    withPidFile(async (pidFile) => {
      const runDir = tempDir();
      const started = Date.now();
      const r = await ctxwrap(['--', script('daemon.sh'), pidFile], {
        runDir,
        env: { CTXWRAP_DRAIN: '300ms' },
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^(?:tick\n)*started\n(?:tick\n)*$/);
      const id = onlyId(runDir);
      expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', exitCode: 0 });
      // The daemon was neither killed nor cut off (no SIGPIPE): it writes on into the result file.
      const daemon = readPid(pidFile);
      const ticks = () => storedOutput(runDir, id).toString().split('tick\n').length - 1;
      const atExit = ticks();
      await waitFor(() => ticks() >= atExit + 5);
      expect(processGone(daemon)).toBe(false);
    }));

  it('a dev server that forks: the server lives on after ctxwrap exits, its lines in the file', () =>
    withPidFile(async (pidFile) => {
      const runDir = tempDir();
      const r = await ctxwrap(['--', 'node', script('fork-server.mjs'), pidFile], {
        runDir,
        env: { CTXWRAP_DRAIN: '1s' },
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^(?:listening \d+\n)*starting\n(?:listening \d+\n)*$/);
      const id = onlyId(runDir);
      await waitFor(() => existsSync(pidFile) && /listening 3\n/.test(storedOutput(runDir, id).toString()));
      expect(processGone(readPid(pidFile))).toBe(false);
      expect(storedOutput(runDir, id).toString()).toMatch(
        /^(?:listening \d+\n)*starting\n(?:listening \d+\n)*listening 3\n/,
      );
    }));
});

describe.concurrent('a command that ignores SIGTERM, and its process group', () => {
  for (const mode of ['ignore', 'exit'] as const) {
    it(`SIGTERM to ctxwrap: ${mode === 'ignore' ? 'the command ignores it' : 'the command exits, a grandchild ignores it'}; SIGKILL after the grace takes the whole group`, () =>
      withPidFile(async (pidFile) => {
        const runDir = tempDir();
        const child = ctxwrap(['--', script('stubborn-group.sh'), mode, pidFile], {
          runDir,
          env: { CTXWRAP_KILL_GRACE: '400ms' },
        });
        await waitFor(
          () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('ready'),
        );
        const grandchild = readPid(pidFile);
        expect(processGone(grandchild)).toBe(false);
        child.kill('SIGTERM');
        const r = await child;
        expect(r.exitCode).toBe(mode === 'ignore' ? 137 : 9);
        expect(r.stdout).toMatch(
          new RegExp(
            `\\[ctxwrap stubborn-group_[0-9a-f]{8}\\] exit ${mode === 'ignore' ? 137 : 9} \\(interrupted by SIGTERM\\)`,
          ),
        );
        // Gone, not merely orphaned: at most a zombie until init reaps it.
        await waitFor(() => processGone(grandchild), 5000);
        expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({
          state: 'complete',
          endReason: 'interrupted',
        });
      }));
  }

  it('--timeout: the command and the grandchild that ignores SIGTERM are gone, exit 124', () =>
    withPidFile(async (pidFile) => {
      const runDir = tempDir();
      const r = await ctxwrap(['--timeout', '1s', '--', script('stubborn-group.sh'), 'exit', pidFile], {
        runDir,
        env: { CTXWRAP_KILL_GRACE: '300ms' },
      });
      expect(r.exitCode).toBe(124);
      expect(r.stdout).toMatch(/exit 124 \(timed out after 1\.0s\)/);
      await waitFor(() => processGone(readPid(pidFile)), 5000);
    }));
});

describe.concurrent('stdin with no terminal', () => {
  const env = { CTXWRAP_STDIN_WAIT: '300ms' };

  it('a socket that is never written to nor closed (as node and many agents give): EOF, not a hang', async () => {
    const runDir = tempDir();
    const child = ctxwrap(['-c', 'read answer; echo "read status $? [$answer]"'], {
      runDir,
      env,
      stdin: 'pipe',
    });
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('read status 1 []\n');
  });

  it('a pipe that is never written to nor closed: EOF; bytes that come later stay for the next reader', async () => {
    const runDir = tempDir();
    // The writer waits for ctxwrap to end (not for a time: a loaded machine starts node slowly).
    const done = join(tempDir(), 'done');
    const writer = `(while [ ! -e "${done}" ]; do sleep 0.05; done; echo later)`;
    const r = await sh(
      `${writer} | { node "${BIN}" -- cat; echo "ctxwrap status $?"; touch "${done}"; cat; }`,
      {
        runDir,
        env,
      },
    );
    expect(r.stdout).toBe('ctxwrap status 0\nlater\n');
    expect(storedIds(runDir)).toHaveLength(1);
  });

  it('a pipe with data: passed whole to the command, however slowly it comes after the first byte', async () => {
    const runDir = tempDir();
    const r = await sh(`(echo first; sleep 1; echo second) | node "${BIN}" -- tr a-z A-Z`, { runDir, env });
    expect(r.stdout).toBe('FIRST\nSECOND\n');
  });

  it('a heredoc, a file and /dev/null are passed as they are', async () => {
    const runDir = tempDir();
    const r = await sh(
      `node "${BIN}" -- cat <<'EOF'\nfrom a heredoc\nEOF\nnode "${BIN}" -- wc -c < "${script('lines.sh')}"\nnode "${BIN}" -- cat < /dev/null; echo "null status $?"`,
      { runDir, env },
    );
    expect(r.stdout).toMatch(/^from a heredoc\n\d+\nnull status 0\n$/);
  });
});

describe('a grep pattern that backtracks for ever', () => {
  it('read stops it at the deadline with a one-line error, exit 2', async () => {
    const runDir = tempDir();
    await ctxwrap(['-c', `printf '%s\\n' ${'a'.repeat(40)}b`], { runDir });
    const started = Date.now();
    const r = await ctxwrap(['read', onlyId(runDir), '--lines', 'grep:/(a+)+$/i'], {
      runDir,
      env: { CTXWRAP_GREP_TIMEOUT: '500ms' },
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "ctxwrap: --lines 'grep:…': the pattern took more than 500ms on this output (catastrophic backtracking?); use a simpler one, without nested repeats such as (a+)+\n",
    );
  });
});
