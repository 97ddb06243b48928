// `ctxwrap hook claude` fed real Claude Code hook payloads; every rewritten command is run by
// bash (Claude Code's Bash tool) and must print and exit exactly as the original does, apart
// from ctxwrap's own summary line. (hook-in-shell-harness.test.ts runs them as Claude Code does.)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, ctxwrapSync, sandbox, shSync } from '../support.js';

const SESSION = '6f1c2a4e-8d3b-4c1e-9a7f-0b2d5e8c9a10';
let box: ReturnType<typeof sandbox>;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  box = sandbox();
  project = join(box.root, 'project');
  mkdirSync(project);
  env = { ...box.env, SHELL: '/bin/bash', CLAUDE_PROJECT_DIR: project };
});

/**
 * A PreToolUse payload as Claude Code sends it for the Bash tool. The mode is bypassPermissions
 * by default: in the default mode, read-only commands (most of these) are left alone (issue 22).
 */
function payload(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: join(box.home, '.claude', 'projects', 'p', `${SESSION}.jsonl`),
    cwd: project,
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run it', timeout: 120000 },
    tool_use_id: 'toolu_01ABCDEF',
    ...extra,
  });
}

function hook(input: string, hookEnv: NodeJS.ProcessEnv = env) {
  return ctxwrapSync(['hook', 'claude'], { input, env: hookEnv, cwd: project });
}

/** The rewritten command from the hook's answer. */
function rewrite(command: string): string {
  const r = hook(payload(command));
  expect(r.exitCode).toBe(0);
  expect(r.stderr).toBe('');
  const answer = JSON.parse(r.stdout);
  expect(Object.keys(answer)).toEqual(['hookSpecificOutput']);
  expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  expect(answer.hookSpecificOutput).not.toHaveProperty('permissionDecision');
  expect(answer.hookSpecificOutput.updatedInput).toEqual({
    command: answer.hookSpecificOutput.updatedInput.command,
    description: 'Run it',
    timeout: 120000,
  });
  return answer.hookSpecificOutput.updatedInput.command;
}

/** What a command prints (stdout and stderr together) and its exit status, run by bash as Claude Code runs it. */
function outcome(shellLine: string): string {
  const r = shSync(`bash -c 'eval "$CTXWRAP_TEST_LINE" < /dev/null' 2>&1; echo "[status $?]"`, {
    env: { ...env, CTXWRAP_TEST_LINE: shellLine },
    cwd: project,
  });
  return r.stdout;
}

describe('ctxwrap hook claude: the rewritten command behaves as the original', () => {
  it.each([
    ['plain', 'echo "hello world"'],
    ['quotes', `printf '%s|%s\\n' 'it'\\''s "single"' "double \\"quoted\\" \\$x"`],
    ['$VARS', `X=41; echo "$((X + 1)) $X" '$X' "\${HOME:+home set}"`],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
    ['a heredoc', "cat <<EOF\nexpanded: ${#HOME} chars\nEOF\ncat <<'RAW'\nraw: $HOME `id`\nRAW"],
    ['&& and ||', 'true && echo and-ran || echo or-skipped; false && echo and-skipped || echo or-ran'],
    ['pipes', "printf 'b\\na\\nc\\n' | sort | head -n 2 | tr a-z A-Z"],
    ['a subshell and $?', '(echo inside; exit 3); echo "after $?"'],
    ['an exit status', 'echo bye; exit 7'],
    ['stderr', 'echo out; sleep 0.2; echo err >&2; exit 2'],
    ['a leading cd', 'cd / && pwd && ls -d tmp'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
    ['bash syntax', '[[ -n "$HOME" ]] && echo "yes {1..3}" {1..3}; arr=(a b); echo "${arr[1]}"'],
    ['no final newline', "printf 'no newline'"],
    ['odd characters', "echo 'tab\there, ✓ unicode, a \\\\ backslash and a '\\''quote'\\'"],
    ['comments and lines', 'echo one # a comment\necho two\n'],
    ['a signal', "echo before; sh -c 'kill -TERM $$'"],
    ['a command not found', 'no-such-command-xyz; sleep 0.2; echo "status $?"'],
  ])('%s', (_what, command) => {
    const wrapped = rewrite(command);
    // The original text, as written, inside the wrapper.
    expect(wrapped).toContain(`{ ${command}\n}`);
    const want = outcome(command);
    const lines = outcome(wrapped).split('\n');
    const own = lines.filter((l) => /^\[ctxwrap \S+\] exit \d+/.test(l));
    const got = lines.filter((l) => !own.includes(l)).join('\n');
    expect(got).toBe(want);
    expect(own.length).toBe(want.endsWith('[status 0]\n') ? 0 : 1);
  });

  it('stores each wrapped run in the session’s own run directory', () => {
    const wrapped = rewrite('echo stored');
    expect(outcome(wrapped)).toBe('stored\n[status 0]\n');
    const results = join(box.runDir, 'sessions', SESSION, 'tool_results');
    const metas = readdirSync(results).filter((f) => /^echo_[0-9a-f]{8}\.json$/.test(f));
    expect(metas).toHaveLength(1);
    const meta = JSON.parse(readFileSync(join(results, metas[0] as string), 'utf8'));
    expect(meta.command).toEqual(['bash', '-c', 'echo stored']);
    expect(meta.cwd).toBe(project);
    expect(readFileSync(join(results, (metas[0] as string).replace('.json', '.txt')), 'utf8')).toBe(
      'stored\n',
    );
  });
});

describe('ctxwrap hook claude: leaves alone (prints nothing, exits 0)', () => {
  it.each([
    ['an already wrapped command', () => payload('ctxwrap -- npm test')],
    ['a background command', () => payload('npm run dev &')],
    ['an editor', () => payload('vim README.md')],
    ['tail -f', () => payload('tail -f /var/log/syslog')],
    ['a dev server', () => payload('npm run dev')],
    ['an unparsable command', () => payload('echo "unterminated')],
    ['another tool', () => payload('x', { tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } })],
    ['a bad session id', () => payload('npm test', { session_id: '../../../tmp/x' })],
    ['plan mode', () => payload('npm test', { permission_mode: 'plan' })],
    ['input that is not JSON', () => '{"session_id": '],
    ['empty input', () => ''],
    ['a JSON array', () => '[1, 2]'],
  ])('%s', (_what, input) => {
    expect(hook(input())).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('a command a deny, ask or allow rule in any settings file may match', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }),
    );
    mkdirSync(join(box.home, '.claude'));
    writeFileSync(
      join(box.home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Bash(git push:*)'], allow: ['Bash(npm test)'] } }),
    );
    for (const command of ['rm -rf build', 'git fetch && git push', 'npm test && ls', 'npm test; rm x']) {
      expect(hook(payload(command, { permission_mode: 'default' }))).toMatchObject({
        exitCode: 0,
        stdout: '',
        stderr: '',
      });
    }
    // Allowed as written: wrapped, and allowed by the hook, since the wrapped text would not match the rule.
    const allowed = JSON.parse(
      hook(payload('npm test', { permission_mode: 'default' })).stdout,
    ).hookSpecificOutput;
    expect(allowed.permissionDecision).toBe('allow');
    expect(allowed.updatedInput.command).toContain('{ npm test\n}');
    expect(
      JSON.parse(hook(payload('npm run lint', { permission_mode: 'default' })).stdout).hookSpecificOutput
        .updatedInput.command,
    ).toContain('_finish');
  });

  it('everything when Claude Code was started with rules no settings file shows (--disallowedTools)', () => {
    // The hook's parent is a shell started with the flag, as Claude Code's own process would be.
    const parent = `"${process.execPath}" "${BIN}" hook claude; true`;
    const r = shSync(`sh -c '${parent}' claude --disallowedTools 'Bash(rm:*)'`, {
      input: payload('rm -rf build'),
      env,
      cwd: project,
    });
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    const plain = shSync(`sh -c '${parent}' claude --model opus`, {
      input: payload('rm -rf build'),
      env,
      cwd: project,
    });
    expect(JSON.parse(plain.stdout).hookSpecificOutput.updatedInput.command).toContain('{ rm -rf build\n}');
  });

  it('everything while a settings file cannot be parsed', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{ "permissions": ');
    expect(hook(payload('npm run lint'))).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('explains its decision with --explain', () => {
    const r = ctxwrapSync(['hook', 'claude', '--explain'], { input: payload('vim x'), env, cwd: project });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'leave alone: vim needs a terminal\n', stderr: '' });
  });
});

describe('ctxwrap hook claude on SessionStart', () => {
  it('exports the session’s run directory to the session’s Bash commands through CLAUDE_ENV_FILE', () => {
    const envFile = join(box.root, 'session-env.sh');
    const start = JSON.stringify({
      session_id: SESSION,
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    expect(hook(start, { ...env, CLAUDE_ENV_FILE: envFile })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    const dir = join(box.runDir, 'sessions', SESSION);
    expect(readFileSync(envFile, 'utf8')).toBe(`export CTXWRAP_RUN_DIR=${dir}\n`);
    // A command the agent runs itself then finds the session's results by id.
    const wrapped = rewrite('echo by-id');
    const id = /\[ctxwrap (\S+)\]/.exec(outcome(`${wrapped}; exit 1`))?.[1];
    expect(id === undefined || existsSync(join(dir, 'tool_results', `${id}.json`))).toBe(true);
    const shown = shSync(
      `. "${envFile}" && ctxwrap show "$(basename "$(ls "$CTXWRAP_RUN_DIR"/tool_results/echo_*.summary.txt)" .summary.txt)"`,
      {
        env,
        cwd: project,
      },
    );
    expect(shown).toMatchObject({ exitCode: 0, stdout: 'by-id\n', stderr: '' });
  });

  it('starts its export on a line of its own, and leaves a FIFO alone (issue 20 #10)', () => {
    const start = JSON.stringify({ session_id: SESSION, hook_event_name: 'SessionStart', source: 'startup' });
    const envFile = join(box.root, 'no-newline.sh');
    writeFileSync(envFile, 'export PATH=/opt/tool/bin:$PATH');
    expect(hook(start, { ...env, CLAUDE_ENV_FILE: envFile })).toMatchObject({ exitCode: 0, stderr: '' });
    const dir = join(box.runDir, 'sessions', SESSION);
    expect(readFileSync(envFile, 'utf8')).toBe(
      `export PATH=/opt/tool/bin:$PATH\nexport CTXWRAP_RUN_DIR=${dir}\n`,
    );
    const fifo = join(box.root, 'env.fifo');
    expect(shSync(`mkfifo ${JSON.stringify(fifo)}`).exitCode).toBe(0);
    // Blocked on the FIFO, the hook would end by its watchdog, with a message on stderr.
    expect(hook(start, { ...env, CLAUDE_ENV_FILE: fifo })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('writes nothing without CLAUDE_ENV_FILE or with a bad session id', () => {
    const start = (id: string) =>
      JSON.stringify({ session_id: id, hook_event_name: 'SessionStart', source: 'startup' });
    expect(hook(start(SESSION))).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    const envFile = join(box.root, 'env.sh');
    expect(hook(start('a/../b'), { ...env, CLAUDE_ENV_FILE: envFile })).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    expect(existsSync(envFile)).toBe(false);
  });
});
