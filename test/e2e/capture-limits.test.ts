// Issue 20 #3, #9, #17: a cap on stored bytes and a free-space floor (past them storing stops,
// the command is never blocked, and every view says the result is cut); Ctrl-\ (SIGQUIT) is
// passed on to the command, and ctxwrap waits for it as for any other command.
import { describe, expect, it } from 'vitest';
import { ctxwrap, onlyId, storedMeta, storedOutput, tempDir, waitFor } from '../support.js';

/** Waits until the only result of `runDir` holds `text` (the command got that far). */
const printed = (runDir: string, text: string) =>
  waitFor(() => {
    try {
      return storedOutput(runDir, onlyId(runDir)).toString().includes(text);
    } catch {
      return false;
    }
  });

describe.concurrent('the cap on stored bytes and the free-space floor', () => {
  it('--max-output: a prefix is stored; the header, list, read and search say the result is cut', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--max-output', '1000', '-c', 'seq 1 100000; echo "error: late failure"'], {
      runDir,
    });
    expect(r.exitCode).toBe(0);
    const id = onlyId(runDir);
    const seq = Array.from({ length: 100_000 }, (_, i) => i + 1).join('\n');
    expect(storedOutput(runDir, id).toString()).toBe(seq.slice(0, 1000));
    expect(storedMeta(runDir, id)).toMatchObject({ bytes: 588_915, storedBytes: 1000 });
    expect(r.stdout).toMatch(
      /^\[ctxwrap seq_\w+\] exit 0 \(output cut short: stored only 1\.0 kB of 589 kB\)/,
    );
    // The summary saw every byte: the last line is in it.
    expect(r.stdout).toContain('error: late failure');
    expect(r.stderr).toMatch(
      /^ctxwrap: stored only 1\.0 kB of the 589 kB output of seq_\w+ \(the cap of 1\.0 kB/,
    );
    const list = await ctxwrap(['list'], { runDir });
    expect(list.stdout).toMatch(/seq_\w+ +\S+ +0 cut short/);
    const read = await ctxwrap(['read', id, '--lines', 'grep:error'], { runDir });
    expect(read.stdout).toMatch(
      /no line matches error .*is cut short: only 1\.0 kB of the 589 kB output is stored/,
    );
    const search = await ctxwrap(['search', 'late failure'], { runDir });
    expect(search.stdout).toContain(
      `${id} is cut short (only 1.0 kB of the 589 kB output is stored): what was not stored is not searched`,
    );
  });

  it('CTXWRAP_MAX_OUTPUT: the command is never blocked past the cap (5 MB through a 64 kB cap)', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', 'head', '-c', '5000000', '/dev/zero'], {
      runDir,
      env: { CTXWRAP_MAX_OUTPUT: '64k' },
    });
    expect(r.exitCode).toBe(0);
    const id = onlyId(runDir);
    expect(storedOutput(runDir, id).length).toBe(65_536);
    expect(storedMeta(runDir, id)).toMatchObject({ bytes: 5_000_000, storedBytes: 65_536 });
  });

  it('CTXWRAP_MIN_FREE: storing stops rather than leave less free space; the command runs as usual', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', 'echo', 'hello'], { runDir, env: { CTXWRAP_MIN_FREE: '1000T' } });
    expect(r.exitCode).toBe(0);
    expect(storedOutput(runDir, onlyId(runDir)).length).toBe(0);
    expect(r.stderr).toMatch(
      /^ctxwrap: nothing of the 6 B output of echo_\w+ was stored \(less than [\d.]+ TB would be left free on the disk \(--min-free, CTXWRAP_MIN_FREE\)\)/,
    );
  });

  it('a bad size: the flag is a one-line error; the variable is warned about and its default used', async () => {
    const runDir = tempDir();
    const flag = await ctxwrap(['--max-output', 'lots', '--', 'echo', 'x'], { runDir });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe(
      "ctxwrap: --max-output takes a size in bytes, with an optional unit k, M, G or T (1k = 1024): 512M, 1G (got 'lots')\n",
    );
    const env = await ctxwrap(['--', 'echo', 'x'], { runDir, env: { CTXWRAP_MIN_FREE: '-1' } });
    expect(env.exitCode).toBe(0);
    expect(env.stderr).toMatch(
      /^ctxwrap: CTXWRAP_MIN_FREE takes a size in bytes.*; using the default 64M and running the command\n$/,
    );
  });
});

describe('Ctrl-\\ (SIGQUIT), not at a terminal', () => {
  it('reaches a command that handles it; ctxwrap waits for it and stores what it printed after', async () => {
    const runDir = tempDir();
    const line = `trap 'echo "got QUIT"; sleep 0.3; echo "after QUIT"; exit 4' QUIT; echo ready; while :; do sleep 0.05; done`;
    const child = ctxwrap(['-c', line], { runDir });
    await printed(runDir, 'ready');
    process.kill(child.pid as number, 'SIGQUIT');
    const r = await child;
    expect([r.exitCode, r.signal]).toEqual([4, undefined]);
    // Its whole tree gets it, as from a terminal: sh may say its `sleep` died of it ("Quit").
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toMatch(
      /^ready\n(Quit\n)?got QUIT\nafter QUIT\n$/,
    );
    expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({ state: 'complete', exitCode: 4 });
  });
});

// Adversarial round (issue 20, beyond its list): SIGUSR2 and SIGALRM killed ctxwrap outright
// (their default action), leaving the result `incomplete` and the command running on; SIGUSR1
// opened node's inspector on port 9229 and printed "Debugger listening" into the output.
describe('SIGUSR1, SIGUSR2, SIGALRM to ctxwrap', () => {
  it.each(['SIGUSR1', 'SIGUSR2', 'SIGALRM'] as const)(
    '%s is passed on to the command, which handles it; ctxwrap waits and stores what it printed',
    async (signal) => {
      const runDir = tempDir();
      const name = signal.slice(3);
      // Ends by itself after 10 s when the signal never comes (no process left behind).
      const line = `trap 'echo "got ${name}"; exit 5' ${name}; echo ready; i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; exit 9`;
      const child = ctxwrap(['-c', line], { runDir });
      await printed(runDir, 'ready');
      process.kill(child.pid as number, signal);
      const r = await child;
      expect([r.exitCode, r.signal]).toEqual([5, undefined]);
      expect(String(r.stderr)).not.toMatch(/Debugger|inspector/);
      expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe(`ready\ngot ${name}\n`);
      expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({ state: 'complete', exitCode: 5 });
    },
  );
});
