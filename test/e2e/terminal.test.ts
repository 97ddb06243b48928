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
});
