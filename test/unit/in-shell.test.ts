import { describe, expect, it } from 'vitest';
import { findView, inShellText, inShellTextFifo } from '../../src/hook/in-shell.js';
import { parseShell } from '../../src/hook/shell-words.js';

const view = (command: string) => findView(command, parseShell(command));

describe('findView', () => {
  it.each([
    ['npm test | tail -20', { prefix: 'npm test ', op: '|', filter: 'tail -20' }],
    ['npm test 2>&1 | tail -n 50', { prefix: 'npm test 2>&1 ', op: '|', filter: 'tail -n 50' }],
    ['make |& head -5\n', { prefix: 'make ', op: '|&', filter: 'head -5' }],
    ['a | b | tail', { prefix: 'a | b ', op: '|', filter: 'tail' }],
    ['(cd x && make) 2>&1 | tail -n 1', { prefix: '(cd x && make) 2>&1 ', op: '|', filter: 'tail -n 1' }],
    ['{ a; b; } | head -3', { prefix: '{ a; b; } ', op: '|', filter: 'head -3' }],
  ])('%j is a view', (command, expected) => {
    expect(view(command)).toEqual(expected);
  });

  it.each([
    'npm test',
    'a && b | tail -5',
    'a; b | tail -5',
    'tail -5 file',
    'a | tail -5 file',
    'a | tail -f',
    'a | tail -5 > out',
    'a | tail -5\r',
    'a | sort',
    'cat <<EOF | tail -1\nx\nEOF',
  ])('%j is not a view', (command) => {
    expect(view(command)).toBeUndefined();
  });
});

describe('inShellText', () => {
  const opts = { finish: "'/n' '/c.js' _finish x_00000000", needs: ['/n', '/c.js'], output: '/r/x.txt' };

  it('runs the original as written, on its own lines, into a FIFO read by cat, then finishes with its status', () => {
    const text = inShellText("echo 'a' && exit 3", opts);
    expect(text).toContain(`{ echo 'a' && exit 3\n} >&"$__ctxwrap_fd" 2>&"$__ctxwrap_fd2"\n`);
    // The reader is started from a subshell: no job of the agent's shell (`wait` would hang on it).
    expect(text).toContain(
      '( { cat >>"$__ctxwrap_out" 2>/dev/null || exec wc -c >"$__ctxwrap_out.rest"; } <"$__ctxwrap_fifo" 2>/dev/null & echo $! >"$__ctxwrap_out.pid" )',
    );
    expect(text).toContain('exec {__ctxwrap_fd}>"$__ctxwrap_fifo"');
    expect(text).not.toMatch(/>\(/);
    // ctxwrap by absolute path, checked before the command runs; unwrapped if it is gone.
    expect(text).toContain('[ -f /n ] && [ -f /c.js ] && (umask 077; : >>"$__ctxwrap_out")');
    expect(text).toContain(`'/n' '/c.js' _finish x_00000000 --reader "$__ctxwrap_pid" "$__ctxwrap_status"`);
    expect(text.split('\n')[0]).not.toContain('\n');
  });

  it('keeps a view a real pipeline, with tee storing what reaches the filter', () => {
    const command = 'npm test 2>&1 | tail -5';
    const text = inShellText(command, { ...opts, view: view(command) });
    expect(text).toContain(
      '{ npm test 2>&1 \n} | if [ -n "$__ctxwrap_pid" ]; then command tee "$__ctxwrap_out"; else command cat; fi | tail -5\n',
    );
    expect(text).toContain(
      `_finish x_00000000 --view 'tail -5' --reader "$__ctxwrap_pid" "$__ctxwrap_status"`,
    );
  });
});

describe('the wrapper text of every shell', () => {
  const opts = {
    finish: "'/usr/bin/node' '/opt/ctxwrap.js' _finish --run-dir '/tmp/r' npm_00000000",
    needs: ['/usr/bin/node', '/opt/ctxwrap.js'],
    output: '/tmp/r/tool_results/npm_00000000.txt',
    capBlocks: 1024,
  };
  // Claude Code 2.1.332 refuses an `rm` it cannot resolve even in bypassPermissions mode: the
  // wrapped command was refused where the original ran (npm run test:agents).
  it.each([
    ['bash', inShellText('npm test', opts)],
    ['zsh', inShellTextFifo('npm test', opts)],
    ['Gemini CLI', inShellTextFifo('npm test', opts, false)],
  ])('%s: holds no rm (the FIFO is removed by _finish)', (_shell, text) => {
    expect(text).toContain('mkfifo');
    expect(text).not.toMatch(/\brm\b/);
  });
});
