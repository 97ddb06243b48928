// Faults: ctxwrap killed, interrupted at every stage, its readers gone, its files removed. Each
// case checks what a caller relies on: the exit status, the summary, and the stored bytes.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  childPids,
  cleanEnv,
  ctxwrap,
  onlyId,
  processGone,
  script,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const NUMBER = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

/** The exact output of `seq 1 n`. */
const seqOutput = (n: number) => Buffer.from(`${Array.from({ length: n }, (_, i) => i + 1).join('\n')}\n`);

/** The start of `seq 1 …` holding at least `bytes` bytes (cheap: the tests run side by side in one thread). */
function seqPrefix(bytes: number): Buffer {
  const lines: string[] = [];
  for (let i = 1, size = 0; size < bytes; i++) {
    lines.push(`${i}\n`);
    size += lines[lines.length - 1]?.length ?? 0;
  }
  return Buffer.from(lines.join(''));
}

/** Spawns the built CLI with stdout and stderr piped but NOT read until `collect()`. */
function spawnHeld(args: string[], runDir: string, env: Record<string, string> = {}) {
  const child = spawn('node', [BIN, ...args], {
    env: cleanEnv(runDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause();
  child.stderr.pause();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const collect = async () => {
    const read = (s: NodeJS.ReadableStream) =>
      new Promise<string>((resolve) => {
        const parts: Buffer[] = [];
        s.on('data', (d: Buffer) => parts.push(d));
        s.on('end', () => resolve(Buffer.concat(parts).toString()));
        s.resume();
      });
    const [stdout, stderr, status] = await Promise.all([read(child.stdout), read(child.stderr), exited]);
    return { stdout, stderr, ...status };
  };
  return { child, collect };
}

describe('ctxwrap SIGKILLed mid-capture', () => {
  it('the command loses its reader, as under `cmd | tee f` when tee dies; the file holds an exact prefix and the result says incomplete', async () => {
    const runDir = tempDir();
    const full = seqOutput(3_000_000);
    const child = ctxwrap(['--', 'node', script('paced-seq.mjs'), '3000000'], { runDir });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).length > 200_000,
    );
    const [command] = childPids(child.pid as number);
    child.kill('SIGKILL');
    await child;
    const id = onlyId(runDir);
    // The command writes into ctxwrap's pipe, not the file: its next write fails and it ends.
    await waitFor(() => processGone(command as number), 30_000);
    const stored = storedOutput(runDir, id);
    expect(stored.length).toBeLessThan(full.length);
    expect(stored.equals(full.subarray(0, stored.length))).toBe(true);
    expect(storedMeta(runDir, id).state).toBe('running');
    const shown = await ctxwrap(['show', id], { runDir });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(
        `^\\[ctxwrap ${id}\\] incomplete: ctxwrap stopped before the command ended; ${stored.length} bytes were captured · `,
      ),
    );
  });
});

// Concurrent: each test has its own run directory, and most of their time is spent waiting.
describe.concurrent('SIGINT, SIGTERM and SIGHUP', () => {
  for (const signal of SIGNALS) {
    it(`${signal} at start, before the command has printed: exit ${128 + NUMBER[signal]}, summary, result complete`, async () => {
      const runDir = tempDir();
      // Long enough to be still running when the signal comes, however loaded the machine.
      const child = ctxwrap(['-c', 'sleep 20; echo never'], { runDir, forceKillAfterDelay: false });
      await waitFor(() => storedIds(runDir).length === 1);
      // Once the shell has started `sleep`: a signal forwarded before the shell forks reaches the
      // shell alone, which waits for its child (the kill grace then ends it with SIGKILL).
      const pid = child.pid as number;
      await waitFor(() => childPids(pid).some((shell) => childPids(shell).length > 0), 30_000);
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(128 + NUMBER[signal]);
      const id = onlyId(runDir);
      expect(r.stdout).toMatch(
        new RegExp(`^\\[ctxwrap ${id}\\] exit ${128 + NUMBER[signal]} \\(interrupted by ${signal}\\)`),
      );
      expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', endReason: 'interrupted' });
    });

    it(`${signal} mid-stream of a fast output: every byte so far stored, summary, result complete`, async () => {
      const runDir = tempDir();
      // Paced slowly: the command writes its file itself, nothing holds it back while the
      // test gets round to the signal.
      // No SIGKILL from execa 5 s after the signal: on a loaded machine ctxwrap may need longer.
      const child = ctxwrap(['--', 'node', script('paced-seq.mjs'), '3000000', '50'], {
        runDir,
        forceKillAfterDelay: false,
      });
      await waitFor(
        () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).length > 100_000,
        30_000,
      );
      child.kill(signal);
      const r = await child;
      const id = onlyId(runDir);
      const stored = storedOutput(runDir, id);
      expect(stored.equals(seqPrefix(stored.length).subarray(0, stored.length))).toBe(true);
      expect(r.exitCode).toBe(128 + NUMBER[signal]);
      expect(r.stdout).toMatch(
        new RegExp(`^\\[ctxwrap ${id}\\] exit ${128 + NUMBER[signal]} \\(interrupted by ${signal}\\)`),
      );
      expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', bytes: stored.length });
    });
  }

  it('a signal that reached a forked copy of a shell, which then ran its program: the program gets it too', async () => {
    // The copy's inherited handler took the signal and exec'd `sleep 20`: without a second
    // signal, the kill grace would end it with SIGKILL (exit 137).
    const runDir = tempDir();
    const child = ctxwrap(['--', 'python3', script('fork-then-exec.py')], {
      runDir,
      forceKillAfterDelay: false,
    });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).length > 0,
      30_000,
    );
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(143);
    expect(r.stdout).toMatch(
      new RegExp(`\\[ctxwrap ${onlyId(runDir)}\\] exit 143 \\(interrupted by SIGTERM\\)`),
    );
  });

  it('any of them in the first 400 ms: either ctxwrap had not started (nothing stored) or the run is complete', async () => {
    await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const signal = SIGNALS[i % 3] as (typeof SIGNALS)[number];
        const runDir = tempDir();
        const child = ctxwrap(['-c', 'echo begun; sleep 20'], { runDir });
        await new Promise((r) => setTimeout(r, (i * 47) % 400));
        child.kill(signal);
        const r = await child;
        const added = storedIds(runDir);
        if (added.length === 0) {
          // Killed while node was still loading, before any file: as a shell would report it.
          expect(r.signal ?? `exit ${r.exitCode}`).toBe(signal);
        } else {
          expect(added).toHaveLength(1);
          expect(r.exitCode).toBe(128 + NUMBER[signal]);
          expect(storedMeta(runDir, added[0] as string)).toMatchObject({
            state: 'complete',
            endReason: 'interrupted',
          });
        }
      }),
    );
  });

  it('signals while the summary is being made and written: the whole summary, the command’s status', async () => {
    // The command exits 0 and leaves behind a process (not holding the pipes) that signals
    // ctxwrap a few ms later, again and again: they land while the summary is made and printed.
    const runDir = tempDir();
    for (const delay of ['0', '0.005', '0.02', '0.05']) {
      // The storm starts once the command's shell ($$) has exited, so that it always lands after.
      const storm = `(while kill -0 $$; do sleep 0.001; done; sleep ${delay}; for i in 1 2 3 4 5 6; do kill -HUP $PPID; kill -INT $PPID; kill -TERM $PPID; sleep 0.003; done) >/dev/null 2>&1 &`;
      const r = await ctxwrap(['-c', `seq 1 200000; ${storm} exit 0`], { runDir });
      expect(r.exitCode, `delay ${delay}`).toBe(0);
      const id = (/^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(r.stdout as string) ?? [])[1] as string;
      expect(storedMeta(runDir, id).state).toBe('complete');
      const shown = await ctxwrap(['show', id], { runDir });
      expect(r.stdout).toBe(shown.stdout);
      expect(storedOutput(runDir, id).equals(seqOutput(200_000))).toBe(true);
    }
  });

  it('signals while the summary is blocked on a full stdout pipe: it arrives whole', async () => {
    const runDir = tempDir();
    // A 300 kB summary (printed whole: under the inline threshold) cannot fit in a pipe nobody reads.
    const held = spawnHeld(['--budget', '1000000', '--', 'seq', '1', '50000'], runDir);
    await waitFor(
      () => storedIds(runDir).length === 1 && storedMeta(runDir, onlyId(runDir)).state === 'complete',
    );
    for (const signal of SIGNALS) held.child.kill(signal);
    await new Promise((r) => setTimeout(r, 200));
    for (const signal of SIGNALS) held.child.kill(signal);
    const r = await held.collect();
    expect([r.code, r.signal]).toEqual([0, null]);
    expect(Buffer.from(r.stdout).equals(seqOutput(50_000))).toBe(true);
    expect(r.stderr).toBe('');
  });
});

describe('ctxwrap - (reading its own stdin) on a pipe that never ends', () => {
  it('SIGINT stops the reading: what arrived is stored and summarised, exit 130', async () => {
    const runDir = tempDir();
    const child = ctxwrap(['--name', 'feed', '-'], { runDir, stdin: 'pipe' });
    child.stdin?.write('first line\nsecond line\n');
    await waitFor(() => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).length === 23);
    child.kill('SIGINT');
    const r = await child;
    const id = onlyId(runDir);
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toMatch(
      new RegExp(
        `^first line\\nsecond line\\n\\[ctxwrap ${id}\\] exit 130 \\(interrupted by SIGINT\\) · 2 lines · \\S+\\n$`,
      ),
    );
    expect(storedMeta(runDir, id)).toMatchObject({ state: 'complete', endReason: 'interrupted', bytes: 23 });
  });

  it('--timeout stops it too: exit 124', async () => {
    const runDir = tempDir();
    const child = ctxwrap(['--timeout', '500ms', '-'], { runDir, stdin: 'pipe' });
    child.stdin?.write('partial\n');
    const r = await child;
    expect(r.exitCode).toBe(124);
    expect(r.stdout).toMatch(/^partial\n\[ctxwrap stdin_[0-9a-f]{8}\] exit 124 \(timed out after 500ms\)/);
    expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({
      state: 'complete',
      cutShort: 'timed out after 500ms',
    });
  });
});

describe('readers and files that go away', () => {
  /** Runs a bash line with the built CLI as $CTX; returns its stdout. */
  const bash = async (line: string, runDir: string) =>
    (
      await execa('bash', ['-c', line], {
        env: { ...cleanEnv(runDir), CTX: BIN },
        extendEnv: false,
        reject: false,
      })
    ).stdout;

  it('EPIPE on stdout, and on stderr with --tee: exit status, summary and every byte kept', async () => {
    const runDir = tempDir();
    const summary = join(tempDir(), 'summary.txt');
    expect(
      await bash(
        `node "$CTX" -- sh -c 'seq 1 200000; exit 3' | head -1; echo "status \${PIPESTATUS[0]}"`,
        runDir,
      ),
    ).toMatch(/^\[ctxwrap sh_[0-9a-f]{8}\] exit 3 · 200,000 lines[^\n]*\nstatus 3$/);
    expect(
      await bash(
        `node "$CTX" --tee -- sh -c 'seq 1 200000; exit 4' 2>&1 >"${summary}" | head -1; echo "status \${PIPESTATUS[0]}"`,
        runDir,
      ),
    ).toBe('1\nstatus 4');
    expect(readFileSync(summary, 'utf8')).toMatch(/^\[ctxwrap sh_[0-9a-f]{8}\] exit 4 · 200,000 lines/);
    expect(storedIds(runDir)).toHaveLength(2);
    for (const id of storedIds(runDir)) {
      expect(storedOutput(runDir, id).equals(seqOutput(200_000))).toBe(true);
      expect(storedMeta(runDir, id).state).toBe('complete');
    }
  });

  it('EPIPE on stdout or stderr in fail-open mode: the command’s exit status', async () => {
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, '');
    expect(
      await bash(
        `node "$CTX" -- sh -c 'seq 1 200000; exit 6' 2>/dev/null | head -1; echo "status \${PIPESTATUS[0]}"`,
        blocked,
      ),
    ).toBe('1\nstatus 6');
    expect(
      await bash(
        `node "$CTX" -- sh -c 'seq 1 200000 >&2; exit 5' 2>&1 >/dev/null | head -2; echo "status \${PIPESTATUS[0]}"`,
        blocked,
      ),
    ).toMatch(
      /^ctxwrap: not storing output \(run directory .* is not a directory \(a file is in the way\)\); running the command as is\n1\nstatus 5$/,
    );
  });

  it('a stdout and stderr that cannot be written at all (files past ulimit -f): the command’s status', async () => {
    const dir = tempDir();
    expect(
      await bash(
        `ulimit -f 0; node "$CTX" -- "${script('mixed.sh')}" >"${join(dir, 'out')}" 2>"${join(dir, 'err')}"; echo "status $?"`,
        dir,
      ),
    ).toBe('status 5');
  });

  it('the output file removed while the command runs: put back with every byte', async () => {
    const runDir = tempDir();
    const child = ctxwrap(['--', script('slow-lines.sh'), '20'], { runDir });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('tick 2\n'),
    );
    const id = onlyId(runDir);
    rmSync(join(runDir, 'tool_results', `${id}.txt`));
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(storedOutput(runDir, id).toString()).toBe(
      Array.from({ length: 20 }, (_, i) => `tick ${i + 1}\n`).join(''),
    );
    expect(r.stderr).toBe(
      `ctxwrap: the run directory was removed while ${id} ran; made it again and stored the output\n`,
    );
  });
});
