import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  ctxwrap,
  killQuietly,
  onlyId,
  readPid,
  script,
  sh,
  storedIds,
  storedMeta,
  storedOutput,
  tempDir,
  waitFor,
} from '../support.js';

const HEADER = /^\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\] /;

describe('small outputs pass through', () => {
  it('prints a small successful output exactly, with nothing added', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', script('lines.sh'), '3'], { runDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('line 1\nline 2\nline 3\n');
    expect(r.stderr).toBe('');
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe('line 1\nline 2\nline 3\n');
  });

  it('adds one stats line with the id when the exit code is not zero', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', script('lines.sh'), '2', '3'], { runDir });
    expect(r.exitCode).toBe(3);
    const id = onlyId(runDir);
    expect(r.stdout).toMatch(
      new RegExp(`^line 1\\nline 2\\n\\[ctxwrap ${id}\\] exit 3 · 2 lines · \\d+ms\\n$`),
    );
  });

  it('keeps a missing final newline, as the command printed it', async () => {
    const runDir = tempDir();
    expect((await ctxwrap(['--', 'printf', 'no newline'], { runDir })).stdout).toBe('no newline');
    expect((await ctxwrap(['-c', 'printf "two\\nlines"; exit 1'], { runDir })).stdout).toMatch(
      /^two\nlines\n\[ctxwrap printf_[0-9a-f]{8}\] exit 1 · 2 lines · \d+ms\n$/,
    );
  });

  it('prints nothing for an empty successful output, and says so for a failing one', async () => {
    const runDir = tempDir();
    expect((await ctxwrap(['--', 'true'], { runDir })).stdout).toBe('');
    const r = await ctxwrap(['--', 'false'], { runDir });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^\[ctxwrap false_[0-9a-f]{8}\] exit 1 · no output · \d+ms\n$/);
  });
});

describe('capture', () => {
  it('stores every byte, stdout and stderr interleaved in arrival order, with metadata', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', script('mixed.sh')], { runDir });
    expect(r.exitCode).toBe(5);
    const id = onlyId(runDir);
    expect(id).toMatch(/^mixed_[0-9a-f]{8}$/);
    expect(storedOutput(runDir, id).toString()).toBe('out 1\nerr 1\nout 2\nerr 2\n');
    const meta = storedMeta(runDir, id);
    expect(meta).toMatchObject({
      id,
      state: 'complete',
      exitCode: 5,
      childExitCode: 5,
      bytes: 24,
      lines: 4,
      binary: false,
      source: 'command',
      command: [script('mixed.sh')],
    });
    expect(typeof meta.durationMs).toBe('number');
    // One descriptor for stdout and stderr: their byte counts apart are no longer known.
    expect(meta).not.toHaveProperty('stderrBytes');
  });

  it('creates the run directory 0700 and result files 0600', async () => {
    const runDir = join(tempDir(), 'nested', 'run');
    await ctxwrap(['--', 'echo', 'x'], { runDir });
    expect(statSync(runDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(runDir, 'tool_results')).mode & 0o777).toBe(0o700);
    const id = onlyId(runDir);
    for (const ext of ['.txt', '.json', '.summary.txt']) {
      expect(statSync(join(runDir, 'tool_results', `${id}${ext}`)).mode & 0o777).toBe(0o600);
    }
  });

  it('summarises a large output within the budget and keeps the whole output on disk', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', script('build-log.sh'), '3000', '1700'], { runDir });
    expect(r.exitCode).toBe(2);
    const out = r.stdout as string;
    expect(out.length).toBeLessThanOrEqual(2000);
    const id = onlyId(runDir);
    const path = join(runDir, 'tool_results', `${id}.txt`);
    expect(out.split('\n')[0]).toBe(
      `[ctxwrap ${id}] exit 2 · 3,001 lines · ${/· (\S+ \S+) · ~/.exec(out)?.[1]} · ~${/~(\S+) tokens/.exec(out)?.[1]} tokens · ${/tokens · (\S+) ·/.exec(out)?.[1]} · full output: ${path}`,
    );
    expect(out).toContain("1700: src/widget.c:42:7: error: 'count' undeclared (first use in this function)");
    expect(out).toContain('CC   beta obj/beta1.o\n');
    expect(out).toMatch(/make: \*\*\* \[Makefile:12: all\] Error 1\n$/);
    expect(out).toMatch(/\[ctxwrap: [\d,]+ lines omitted, \d+-\d+\]/);
    expect(storedOutput(runDir, id).toString().split('\n')).toHaveLength(3002);
  });

  it('honours --budget and --tail-ratio', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--budget', '600', '--tail-ratio', '1', '--', script('varied.sh'), '2000'], {
      runDir,
    });
    expect((r.stdout as string).length).toBeLessThanOrEqual(600);
    expect(r.stdout).toMatch(
      /^\[ctxwrap varied_[0-9a-f]{8}\] [^\n]+\n\[ctxwrap: 1,9\d\d lines omitted, 1-\d+\]\n(\w+ step \d+\n)+alpha step 2000\n$/,
    );
  });

  it('runs a shell string with -c, pipelines and all', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['-c', 'echo one && echo two | tr a-z A-Z; exit 4'], { runDir });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toMatch(/^one\nTWO\n\[ctxwrap echo_[0-9a-f]{8}\] exit 4/);
    expect(storedMeta(runDir, onlyId(runDir)).command).toEqual([
      '/bin/sh',
      '-c',
      'echo one && echo two | tr a-z A-Z; exit 4',
    ]);
  });

  it('names a result after the tool a launcher runs (python3 -m pip is pip_, env A=1 time sh is sh_)', async () => {
    const runDir = tempDir();
    await ctxwrap(['--', 'env', 'A=1', 'python3', '-m', 'pip', '--version'], { runDir });
    expect(onlyId(runDir)).toMatch(/^pip_[0-9a-f]{8}$/);
    const shell = tempDir();
    await ctxwrap(['-c', 'A=1 env B=2 time -p sh -c true 2>/dev/null; exit 3'], { runDir: shell });
    expect(onlyId(shell)).toMatch(/^sh_[0-9a-f]{8}$/);
  });

  it('stores what arrives on stdin with -, named by --name', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--name', 'mcp-fetch', '-'], { runDir, input: 'fetched body\n' });
    expect(r.exitCode).toBe(0);
    const id = onlyId(runDir);
    expect(id).toMatch(/^mcp-fetch_[0-9a-f]{8}$/);
    expect(r.stdout).toBe(
      `fetched body\n[ctxwrap ${id}] exit 0 · 1 line · ${/· (\d+ms)\n$/.exec(r.stdout as string)?.[1]}\n`,
    );
    expect(storedMeta(runDir, id).source).toBe('stdin');
  });

  it('passes stdin through to the command', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', 'tr', 'a-z', 'A-Z'], { runDir, input: 'shout\n' });
    expect(r.stdout).toBe('SHOUT\n');
  });

  it('accepts the explicit run spelling, and --run-dir before or after the subcommand', async () => {
    const a = tempDir();
    const b = tempDir();
    await ctxwrap(['run', '--run-dir', a, '--', 'echo', 'x'], { runDir: tempDir() });
    await ctxwrap(['--run-dir', b, 'run', '--', 'echo', 'y'], { runDir: tempDir() });
    expect(storedIds(a)).toHaveLength(1);
    expect(storedIds(b)).toHaveLength(1);
  });

  it('defaults the run directory to $XDG_STATE_HOME/ctxwrap', async () => {
    const state = tempDir();
    await ctxwrap(['--', 'echo', 'x'], { env: { XDG_STATE_HOME: state } });
    expect(storedIds(join(state, 'ctxwrap'))).toHaveLength(1);
  });

  it('makes unique ids under many parallel runs', async () => {
    const runDir = tempDir();
    await Promise.all(Array.from({ length: 20 }, (_, i) => ctxwrap(['--', 'echo', String(i)], { runDir })));
    const ids = storedIds(runDir);
    expect(ids).toHaveLength(20);
    expect(new Set(ids.map((id) => storedOutput(runDir, id).toString())).size).toBe(20);
  });
});

describe('show', () => {
  it('reprints the summary byte for byte', async () => {
    const runDir = tempDir();
    const first = await ctxwrap(['--', script('build-log.sh'), '500', '250'], { runDir });
    const again = await ctxwrap(['show', onlyId(runDir)], { runDir });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(first.stdout);
  });

  it('refuses ids that are not ids, and names the run dir for unknown ones', async () => {
    const runDir = tempDir();
    for (const bad of ['../../etc/passwd', '/etc/passwd', '', 'x'.repeat(300)]) {
      const r = await ctxwrap(['show', bad], { runDir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^ctxwrap: invalid result id .*\n$/);
    }
    const r = await ctxwrap(['show', 'npm_0badc0de'], { runDir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`ctxwrap: no result 'npm_0badc0de' in ${runDir} (see 'ctxwrap list')\n`);
  });
});

describe('exit status', () => {
  it('is 127 for a command that is not found, with a one-line explanation', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', 'no-such-command-ctxwrap'], { runDir });
    expect(r.exitCode).toBe(127);
    expect(r.stdout).toMatch(/exit 127 \(command not found: no-such-command-ctxwrap\)/);
  });

  it('is 126 for a file that is not executable', async () => {
    const runDir = tempDir();
    const file = join(tempDir(), 'data.txt');
    writeFileSync(file, 'not a program\n', { mode: 0o644 });
    const r = await ctxwrap(['--', file], { runDir });
    expect(r.exitCode).toBe(126);
    expect(r.stdout).toMatch(/exit 126 \(not executable: .*data\.txt\)/);
  });

  it('is 128 + n when the command dies of signal n', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['-c', 'echo dying; kill -TERM $$'], { runDir });
    expect(r.exitCode).toBe(143);
    expect(r.stdout).toMatch(/exit 143 \(killed by SIGTERM\)/);
  });

  it('is 124 when --timeout runs out, with the output so far kept', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--timeout', '300ms', '--', script('slow-lines.sh'), '200'], { runDir });
    expect(r.exitCode).toBe(124);
    expect(r.stdout).toMatch(/exit 124 \(timed out after 300ms\)/);
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toMatch(/^tick 1\n/);
    expect(storedMeta(runDir, onlyId(runDir)).cutShort).toBe('timed out after 300ms');
  });

  it('is 2 with a one-line message for ctxwrap usage errors', async () => {
    const runDir = tempDir();
    const cases: Array<[string[], RegExp]> = [
      [
        ['--budget', 'lots', '--', 'true'],
        /^ctxwrap: --budget takes a whole number at least 200 \(got 'lots'\)\n$/,
      ],
      [
        ['--tail-ratio', '2', '--', 'true'],
        /^ctxwrap: --tail-ratio takes a number from 0 to 1 \(got '2'\)\n$/,
      ],
      [
        ['--timeout', 'soon', '--', 'true'],
        /^ctxwrap: --timeout takes a duration such as 500ms, 30s, 5m, 2h or 7d \(got 'soon'\)\n$/,
      ],
      [['--frobnicate', '--', 'true'], /^ctxwrap: unknown option '--frobnicate' \(see ctxwrap --help\)\n$/],
      [[], /^ctxwrap: nothing to run: .*\n$/],
      [['-c', 'true', 'extra'], /^ctxwrap: -c takes the whole command as one string; .*\n$/],
    ];
    for (const [args, message] of cases) {
      const r = await ctxwrap(args, { runDir });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(storedIds(runDir)).toEqual([]);
  });
});

describe('signals', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`forwards ${signal} to the command and still prints the summary`, async () => {
      const runDir = tempDir();
      const child = ctxwrap(['--', script('trap-signal.sh')], { runDir });
      await waitFor(
        () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('ready'),
      );
      child.kill(signal);
      const r = await child;
      expect(r.exitCode).toBe(7);
      const name = signal.slice(3);
      // The whole process group gets the signal, as from a terminal: the shell may report its
      // interrupted `sleep` ("Terminated") before its trap runs.
      expect(r.stdout).toMatch(
        new RegExp(
          `^ready\\n(?:\\w+\\n)?got ${name}\\n\\[ctxwrap trap-signal_[0-9a-f]{8}\\] exit 7 \\(interrupted by ${signal}\\)`,
        ),
      );
      expect(storedMeta(runDir, onlyId(runDir))).toMatchObject({
        state: 'complete',
        endReason: 'interrupted',
      });
    });
  }

  it('kills a command that ignores SIGTERM after the grace period', async () => {
    const runDir = tempDir();
    const child = ctxwrap(['--', script('ignore-term.sh')], { runDir, env: { CTXWRAP_KILL_GRACE: '300ms' } });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('ready'),
    );
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(137);
    expect(r.stdout).toMatch(/exit 137 \(interrupted by SIGTERM\)/);
  });

  it('leaves an incomplete result with every byte so far when ctxwrap is SIGKILLed', async () => {
    const runDir = tempDir();
    // In a process group of its own, so that the command (which outlives ctxwrap killed alone:
    // it writes the result file itself) can be ended with it.
    const child = ctxwrap(['--', script('slow-lines.sh'), '1000'], { runDir, detached: true });
    await waitFor(
      () => storedIds(runDir).length === 1 && storedOutput(runDir, onlyId(runDir)).includes('tick 5\n'),
    );
    child.kill('SIGKILL');
    await child;
    const id = onlyId(runDir);
    const stored = storedOutput(runDir, id).toString();
    expect(stored).toMatch(/^tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n/);
    const shown = await ctxwrap(['show', id], { runDir });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('tick 5');
    expect(shown.stdout).toMatch(
      new RegExp(
        `\\[ctxwrap ${id}\\] incomplete: ctxwrap stopped before the command ended; \\d+ bytes were captured`,
      ),
    );
    killQuietly(child.pid, true);
  });

  it('survives its reader closing the pipe early (EPIPE) and keeps every byte', async () => {
    const runDir = tempDir();
    const r = await sh(`node ${BIN} -- seq 1 200000 | head -3; echo "status=$?"`, { runDir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\[ctxwrap seq_[0-9a-f]{8}\] exit 0 · 200,000 lines/);
    const id = onlyId(runDir);
    expect(storedOutput(runDir, id).toString().split('\n')).toHaveLength(200_001);
    expect(storedMeta(runDir, id).state).toBe('complete');
  });
});

describe('hard outputs', () => {
  it('stores binary output but never prints it', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', 'cat', process.execPath], { runDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^\[ctxwrap cat_[0-9a-f]{8}\] exit 0 · binary output \(ELF executable, [\d.]+ MB\) not shown · /,
    );
    expect((r.stdout as string).split('\n')).toHaveLength(2);
    expect(storedOutput(runDir, onlyId(runDir)).equals(readFileSync(process.execPath))).toBe(true);
  });

  it('cuts a single huge line inside the line, showing its start and end', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['-c', `node -e "process.stdout.write('<'+'x'.repeat(5e6)+'>')"`], { runDir });
    const out = r.stdout as string;
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out).toMatch(/\n<x+…\[4,99\d,\d{3} chars omitted\]…x+>\n/);
    expect(storedOutput(runDir, onlyId(runDir)).length).toBe(5_000_002);
  });

  it('escapes output lines that try to pass for its own', async () => {
    const runDir = tempDir();
    const forged = '[ctxwrap npm_00000000] exit 0 · all good';
    const r = await ctxwrap(['--', 'printf', `${forged}\\n  [ctxwrap: 5 lines omitted, 1-5]\\n`], { runDir });
    expect(r.stdout).toBe(`\\${forged}\n\\  [ctxwrap: 5 lines omitted, 1-5]\n`);
  });

  it('strips terminal control sequences from what it prints, never from the stored file', async () => {
    const runDir = tempDir();
    const raw =
      '\x1b[31mred\x1b[0m \x1b]0;title\x07done\rprogress 10%\rprogress 100%\n\x1b[2Jcleared \u202eevil\n';
    const r = await ctxwrap(['--', 'printf', '%s', raw], { runDir });
    expect(r.stdout).toBe('progress 100%\ncleared <U+202E>evil\n');
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe(raw);
  });

  it('does not wait for a background process that keeps the output open, nor kill it', async () => {
    const runDir = tempDir();
    const started = Date.now();
    const pidFile = join(tempDir(), 'pid');
    const r = await ctxwrap(['-c', `sleep 30 & echo $! > ${pidFile}; echo started`], { runDir });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('started\n');
    const pid = readPid(pidFile);
    try {
      expect(() => process.kill(pid, 0)).not.toThrow();
    } finally {
      killQuietly(pid);
    }
  });
});

describe('what changed since the last run', () => {
  it('marks lines that are new since the same command last ran here, and counts what went away', async () => {
    const runDir = tempDir();
    const work = tempDir();
    const log = join(work, 'log.txt');
    const body = (errors: string[]) =>
      [
        ...Array.from({ length: 300 }, (_, i) => `compiling ${['alpha', 'beta', 'gamma'][i % 3]} ${i}`),
        ...errors,
        ...Array.from({ length: 300 }, (_, i) => `linking ${['alpha', 'beta', 'gamma'][i % 3]} ${i}`),
      ].join('\n');
    writeFileSync(log, body(['a.ts(1,1): error TS2322: old one', 'b.ts(2,2): error TS2345: fixed later']));
    const first = await ctxwrap(['--', 'cat', log], { runDir, cwd: work });
    const firstId = (HEADER.exec(first.stdout as string) ?? [])[1];
    writeFileSync(log, body(['a.ts(1,1): error TS2322: old one', 'c.ts(9,9): error TS2551: brand new']));
    const second = await ctxwrap(['--', 'cat', log], { runDir, cwd: work });
    const out = second.stdout as string;
    expect(out).toContain(
      `[ctxwrap: vs ${firstId}, the previous run of this command here: 1 new line (marked +), 1 salient gone]`,
    );
    expect(out).toContain('+302: c.ts(9,9): error TS2551: brand new');
    expect(out).toContain('301: a.ts(1,1): error TS2322: old one');
    const other = await ctxwrap(['--', 'cat', log], { runDir, cwd: tempDir() });
    expect(other.stdout).not.toContain('vs ');
    expect(existsSync(join(runDir, 'last'))).toBe(true);
  });

  it('names the fixed error among many alike ones, read back from the previous output', async () => {
    // The previous run keeps the text of its best 20 salient lines only: the fixed one, the 30th
    // of 40 alike errors, is read from its stored output.
    const runDir = tempDir();
    const work = tempDir();
    const log = join(work, 'log.txt');
    const name = (i: number) => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
    const error = (i: number) =>
      `src/${name(i)}.ts(${i},3): error TS2339: Property '${name(i)}' does not exist on type 'Q${name(i)}'.`;
    const body = (skip: number) =>
      [
        ...Array.from({ length: 300 }, (_, i) => `compiling unit ${i}`),
        ...Array.from({ length: 40 }, (_, i) => i + 1)
          .filter((i) => i !== skip)
          .map(error),
        'Found 40 errors.',
      ].join('\n');
    writeFileSync(log, body(0));
    await ctxwrap(['--', 'cat', log], { runDir, cwd: work });
    writeFileSync(log, body(30));
    const out = (await ctxwrap(['--', 'cat', log], { runDir, cwd: work })).stdout as string;
    expect(out).toContain('1 salient gone]');
    expect(out).toContain(`[ctxwrap: gone: ${error(30)}]`);
  });
});
