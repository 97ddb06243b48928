import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ctxwrap, onlyId, script, storedOutput, tempDir } from '../support.js';

/** Runs a command under script(1), so that ctxwrap's stdout and stderr are a terminal. */
function inTerminal(command: string, env: Record<string, string>) {
  return execa('script', ['-qfec', command, '/dev/null'], { env, extendEnv: false, reject: false });
}

describe('a person at a terminal', () => {
  it('gets colour on a terminal, and a live status line for runs over a second', async () => {
    const runDir = tempDir();
    const env = cleanEnv(runDir, { FORCE_COLOR: '1' });
    delete env.NO_COLOR;
    const r = await inTerminal(`node ${BIN} -- ${script('slow-lines.sh')} 30`, env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\x1b\[2K\x1b\[2mctxwrap: running 1\.\ds · \d+ lines · \d+ B\x1b\[22m/);
    expect(r.stdout).toContain('tick 30');
  });

  it('shows a prompt (a line with no newline) the command waits on, and lets the answer through', async () => {
    const runDir = tempDir();
    // The answer is typed only once the prompt is on the terminal (python3 drives the pty).
    const drive = [
      'import os, pty, sys, time',
      'pid, fd = pty.fork()',
      `if pid == 0: os.execvp('node', ['node', '${BIN}', '-c', 'printf "Name? "; read n; echo "hello $n"'])`,
      'seen = b""',
      'end = time.time() + 20',
      'while b"Name? " not in seen and time.time() < end: seen += os.read(fd, 4096)',
      'os.write(fd, b"bob\\n") if b"Name? " in seen else os.kill(pid, 9)',
      'while True:',
      '    try: chunk = os.read(fd, 4096)',
      '    except OSError: break',
      '    if not chunk: break',
      '    seen += chunk',
      'sys.stdout.write(seen.decode())',
    ].join('\n');
    const r = await execa('python3', ['-c', drive], {
      env: cleanEnv(runDir),
      extendEnv: false,
      reject: false,
    });
    expect(r.stdout).toContain('Name? ');
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe('Name? hello bob\n');
  });

  it('honours NO_COLOR on a terminal', async () => {
    const runDir = tempDir();
    const r = await inTerminal(
      `node ${BIN} -- ${script('build-log.sh')} 500 250`,
      cleanEnv(runDir, { NO_COLOR: '1' }),
    );
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).toMatch(/^\[ctxwrap build-log_/);
  });

  it('prints plain text when piped, even with colour forced elsewhere', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--', script('build-log.sh'), '500', '250'], {
      runDir,
      env: { FORCE_COLOR: '0' },
    });
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stderr).toBe('');
  });

  it('streams the whole output to stderr with --tee, the summary to stdout', async () => {
    const runDir = tempDir();
    const r = await ctxwrap(['--tee', '--', script('varied.sh'), '3000'], { runDir });
    expect(r.stderr).toBe(storedOutput(runDir, onlyId(runDir)).toString());
    expect((r.stderr as string).split('\n')).toHaveLength(3001);
    expect((r.stdout as string).length).toBeLessThanOrEqual(2000);
  });

  it('--tee drops escape sequences and shows controls (issue 20: OSC 52, CSI 2J, bidi were echoed raw)', async () => {
    const runDir = tempDir();
    const line = "printf 'a\\033]52;c;SGVsbG8=\\007b\\033[2Jc\\342\\200\\256d\\n'";
    const r = await ctxwrap(['--tee', '-c', line], { runDir });
    expect(r.stderr).toBe('abc<U+202E>d\n');
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toBe('a\x1b]52;c;SGVsbG8=\x07b\x1b[2Jc\u202ed\n');
  });
});
