import { describe, expect, it } from 'vitest';
import { mayExitEarly } from '../../src/commands/hook.js';
import { inShellTextZsh } from '../../src/hook/in-shell.js';

describe('Gemini CLI: a wrapper with no substitution and no trap (issue 22 #2)', () => {
  const opts = { finish: "'/n' '/c.js' _finish x_00000000", needs: ['/n', '/c.js'], output: '/r/x.txt' };

  it('has no $(...), >(...), <(...), backticks or trap', () => {
    const text = inShellTextZsh('make check', opts, false);
    expect(text).not.toMatch(/\$\(|[<>]\(|`|\btrap\b/);
    expect(text).toContain('{ make check\n} >"$__ctxwrap_out" 2>&1\n');
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
