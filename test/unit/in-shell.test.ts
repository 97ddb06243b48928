import { describe, expect, it } from 'vitest';
import { findView, inShellText } from '../../src/hook/in-shell.js';
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
  it('runs the original as written, on its own lines, then finishes with its status', () => {
    const text = inShellText("echo 'a' && exit 3", {
      finish: 'ctxwrap _finish x_00000000',
      output: '/r/x.txt',
    });
    expect(text).toBe(
      `__ctxwrap_out=/r/x.txt; { : >>"$__ctxwrap_out"; } 2>/dev/null || __ctxwrap_out=/dev/stdout; trap 'ctxwrap _finish x_00000000 "$?"' EXIT; { echo 'a' && exit 3\n} >"$__ctxwrap_out" 2>&1\n__ctxwrap_status=$?; trap - EXIT; ctxwrap _finish x_00000000 "$__ctxwrap_status"`,
    );
  });

  it('keeps a view a real pipeline, with tee storing what reaches the filter', () => {
    const command = 'npm test 2>&1 | tail -5';
    const text = inShellText(command, {
      finish: 'ctxwrap _finish x_00000000',
      output: '/r/x.txt',
      view: view(command),
    });
    expect(text).toContain(`{ npm test 2>&1 \n} | command tee "$__ctxwrap_out" | tail -5\n`);
    expect(text).toContain(`ctxwrap _finish x_00000000 --view 'tail -5' "$__ctxwrap_status"`);
  });
});
