import { describe, expect, it } from 'vitest';
import { decide, type PreToolUseInput, shellQuote, type WrapContext } from '../../src/hook/claude-hook.js';
import { ancestorsAddRules, loadBashRules, ruleMightMatch } from '../../src/hook/permission-rules.js';

const ctx = (rules: Partial<WrapContext['rules']> = {}): WrapContext => ({
  self: 'ctxwrap',
  sessionDir: (id) => `/state/sessions/${id}`,
  shell: 'bash',
  rules: { allow: [], ask: [], deny: [], ...rules },
});
const input = (command: string, extra: Partial<PreToolUseInput> = {}): PreToolUseInput => ({
  session_id: 's-1',
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  ...extra,
});
const wrapped = (inner: string, prefix = '') =>
  `${prefix}CTXWRAP_RUN_DIR=/state/sessions/s-1 ctxwrap --shell bash -c ${shellQuote(inner)}`;

describe('decide: wraps', () => {
  it.each([
    'npm test',
    'npm test 2>&1 | tail -50',
    'make && make check || echo failed',
    `grep -rn "it's" src | head`,
    'FOO=1 pytest -q',
    'for f in *.ts; do wc -l "$f"; done',
    'cat <<EOF | sort\nb\na\nEOF',
    '(npm run build) && echo ok',
    'echo $(git rev-parse HEAD)',
    'vite build',
    'tail -n 20 log.txt',
  ])('%j', (command) => {
    expect(decide(input(command), ctx())).toEqual({ wrap: wrapped(command) });
  });

  it('keeps leading cd steps outside, so the agent’s shell still changes directory', () => {
    expect(decide(input('cd web && npm test 2>&1 | tail'), ctx())).toEqual({
      wrap: wrapped('npm test 2>&1 | tail', 'cd web && '),
    });
    expect(decide(input('cd "$HOME/x" && cd y && make'), ctx())).toEqual({
      wrap: wrapped('make', 'cd "$HOME/x" && cd y && '),
    });
  });
});

describe('decide: leaves alone', () => {
  it.each([
    ['ctxwrap -- npm test', /already/],
    ['/opt/bin/ctxwrap read x_00000000 --lines 1-5', /already/],
    ['npm run dev &', /background/],
    ['sleep 5 & wait', /background/],
    ['vim notes.txt', /terminal/],
    ['git log | less', /terminal/],
    ['sudo nano /etc/hosts', /terminal/],
    ['ssh host uptime', /terminal/],
    ['watch -n1 date', /terminal/],
    ['tail -f app.log', /forever/],
    ['tail -n 5 -F app.log', /forever/],
    ['docker logs -f web', /forever/],
    ['npm run dev', /dev server/],
    ['npx vite', /dev server/],
    ['vite --port 3000', /dev server/],
    ['next dev', /dev server/],
    ['python3 -m http.server 8000', /dev server/],
    ['tsc --watch', /watch/],
    ['cd src', /changes the agent/],
    ['export A=1 && make', /changes the agent/],
    ['source .venv/bin/activate && pytest', /changes the agent/],
    ['cd a && make || echo no', /changes the agent/],
    ['$CMD --version', /run time/],
    ['echo "unterminated', /cannot parse/],
    ['echo $(vim x)', /terminal/],
  ])('%j (%s)', (command, why) => {
    const d = decide(input(command), ctx());
    expect('leave' in d && d.leave).toMatch(why);
  });

  it.each([
    [{ tool_name: 'Read' }, /Bash/],
    [{ hook_event_name: 'PostToolUse' }, /PreToolUse/],
    [{ tool_input: { command: 'ls', run_in_background: true } }, /background/],
    [{ tool_input: {} }, /no command/],
    [{ session_id: '../../etc' }, /session id/],
    [{ session_id: undefined }, /session id/],
    [{ permission_mode: 'plan' }, /plan/],
    [{ permission_mode: 'dontAsk' }, /dontAsk/],
  ])('an input with %j', (extra, why) => {
    const d = decide(input('npm test', extra as Partial<PreToolUseInput>), ctx());
    expect('leave' in d && d.leave).toMatch(why);
  });

  it('when the permission rules are unknown', () => {
    expect(decide(input('npm test'), { ...ctx(), rules: undefined })).toEqual({
      leave: 'the permission rules are unknown',
    });
  });

  it.each([
    ['deny', 'Bash(rm:*)', 'rm -rf build'],
    ['deny', 'Bash(rm *)', `r''m -rf build`],
    ['deny', 'Bash(git push --force)', 'git status && git push --force'],
    ['deny', 'Bash(curl:*)', 'echo $(curl -s x)'],
    ['ask', 'Bash', 'ls'],
    ['ask', 'Bash(*)', 'ls'],
    ['allow', 'Bash(npm test:*)', 'npm test -- --run'],
  ])('a command the %s rule %s may match: %j', (kind, rule, command) => {
    const d = decide(input(command), ctx({ [kind]: [rule] }));
    expect('leave' in d && d.leave).toMatch(`the ${kind} rule`);
  });

  it('ignores allow rules when nothing asks anyway (bypassPermissions), never deny rules', () => {
    const allow = ctx({ allow: ['Bash(npm test:*)'] });
    expect(decide(input('npm test', { permission_mode: 'bypassPermissions' }), allow)).toEqual({
      wrap: wrapped('npm test'),
    });
    const deny = ctx({ deny: ['Bash(npm test:*)'] });
    expect('leave' in decide(input('npm test', { permission_mode: 'bypassPermissions' }), deny)).toBe(true);
  });

  it('wraps when no rule could match', () => {
    expect(
      decide(
        input('npm test'),
        ctx({ deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'], allow: ['Bash(ls)'] }),
      ),
    ).toEqual({
      wrap: wrapped('npm test'),
    });
  });
});

describe('rules', () => {
  it.each([
    ['Bash', 'anything', true],
    ['Bash()', 'anything', true],
    ['Bash(:*)', 'anything', true],
    ['Bash(npm run test:*)', 'npm run test --watch', true],
    ['Bash(npm run test:*)', 'npm test', false],
    ['Bash(git * --force)', 'git push origin --force', true],
    ['Bash(RM *)', 'rm x', true],
  ])('%s might match %j: %s', (rule, command, expected) => {
    expect(ruleMightMatch(rule, [command])).toBe(expected);
  });

  it('reads Bash rules from every settings file, skipping missing ones', () => {
    const files: Record<string, string> = {
      '/a': JSON.stringify({ permissions: { allow: ['Bash(ls)', 'Read(*)'], deny: ['Bash(rm:*)'] } }),
      '/b': JSON.stringify({ permissions: { ask: ['Bash'] }, hooks: {} }),
    };
    const read = (p: string) => {
      if (p in files) return files[p] as string;
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    };
    expect(loadBashRules(['/a', '/missing', '/b'], read)).toEqual({
      allow: ['Bash(ls)'],
      ask: ['Bash'],
      deny: ['Bash(rm:*)'],
    });
  });

  it.each([
    ['{ not json'],
    [JSON.stringify({ permissions: { deny: 'Bash' } })],
    [JSON.stringify({ permissions: 3 })],
  ])('gives up (undefined) on a settings file it cannot understand: %s', (text) => {
    expect(loadBashRules(['/x'], () => text)).toBeUndefined();
  });
});

describe('shellQuote', () => {
  it.each([
    ['plain', 'plain'],
    ['/a/b-c_d.e', '/a/b-c_d.e'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['', "''"],
  ])('%j → %s', (text, expected) => {
    expect(shellQuote(text)).toBe(expected);
  });
});

describe('ancestorsAddRules', () => {
  /** A fake /proc: pid → [cmdline args, parent pid]. */
  const proc = (table: Record<number, [string[], number]>) => (path: string) => {
    const [, pid, file] = /\/proc\/(\d+)\/(\w+)$/.exec(path) ?? [];
    const entry = table[Number(pid)];
    if (!entry) throw Object.assign(new Error('gone'), { code: 'ENOENT' });
    return file === 'cmdline' ? `${entry[0].join('\0')}\0` : `${pid} (x y) S ${entry[1]} 1 1`;
  };

  it.each([
    [
      { 10: [['sh', '-c', 'ctxwrap hook claude'], 9], 9: [['claude', '--disallowedTools', 'Bash(rm:*)'], 1] },
      true,
    ],
    [{ 10: [['bash'], 9], 9: [['node', 'claude', '--settings=/x.json'], 1] }, true],
    [{ 10: [['sh'], 9], 9: [['claude', '--model', 'opus'], 1] }, false],
    [{ 10: [['sh'], 9] }, false],
  ] as [Record<number, [string[], number]>, boolean][])('%j → %s', (table, expected) => {
    expect(ancestorsAddRules(10, '/proc', proc(table))).toBe(expected);
  });
});
