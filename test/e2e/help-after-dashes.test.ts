// A help flag after `--` belongs to the wrapped command, whatever options come before `--`.
import { describe, expect, it } from 'vitest';
import { ctxwrap, tempDir } from '../support.js';

const echoFirst = ['sh', '-c', 'echo "got $1"', 'sh'];

describe('--help after --', () => {
  it.each([
    [['--', ...echoFirst, '--help']],
    [['--timeout', '5s', '--', ...echoFirst, '--help']],
    [['--budget', '500', '--', ...echoFirst, '-h']],
    [['run', '--timeout', '5s', '--', ...echoFirst, '--help']],
  ])('ctxwrap %j runs the command', async (args) => {
    const runDir = tempDir();
    const r = await ctxwrap(args, { runDir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^got -(-help|h)$/m);
    expect(r.stdout).not.toContain('Usage: ctxwrap');
  });

  it('ctxwrap --help before any command still shows the help', async () => {
    const r = await ctxwrap(['--help'], { runDir: tempDir() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: ctxwrap');
  });
});
