import { describe, expect, it } from 'vitest';
import { mayExitEarly } from '../../src/commands/hook.js';
import { inShellTextFifo } from '../../src/hook/in-shell.js';

describe('Gemini CLI: a wrapper with no substitution and no trap (issue 22 #2)', () => {
  const opts = { finish: "'/n' '/c.js' _finish x_00000000", needs: ['/n', '/c.js'], output: '/r/x.txt' };

  it('has no $(...), >(...), <(...), backticks or trap', () => {
    const text = inShellTextFifo('make check', opts, false);
    expect(text).not.toMatch(/\$\(|[<>]\(|`|\btrap\b/);
    // The command writes into a FIFO read by cat, never into the result file (issue 20 #2).
    expect(text).toContain('{ make check\n} >&$__ctxwrap_fd 2>&$__ctxwrap_fd2\n');
    expect(text).toContain('command mkfifo -m 600 "$__ctxwrap_fifo"');
    expect(text).toContain(`_finish x_00000000 --reader "$__ctxwrap_pid" "$__ctxwrap_status"`);
  });

  it.each([
    ['echo before; exit 3', true],
    ['set -e; make', true],
    ['source env.sh && make', true],
    ['. ./env.sh; make', true],
    ['exec make', true],
    ['make check', false],
    ['npm run exit-code', false],
    ['./configure && make', false],
  ])('%j may end the shell early: %s', (command, expected) => {
    expect(mayExitEarly(command)).toBe(expected);
  });
});
