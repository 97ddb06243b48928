// The in-shell hook against a harness that runs commands the way Claude Code's Bash tool does
// (seen in anthropics/claude-code#57450: `source <snapshot> 2>/dev/null || true && ... && eval
// '<command>' < /dev/null && pwd -P >| <cwd file>`), with a snapshot of functions and aliases.
// Each command runs unwrapped and as the hook rewrites it; exit status, the directory the shell
// ends in, the stored output (against the unwrapped output) and what the agent sees must agree.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHook } from '../../src/commands/hook.js';
import { BIN, cleanEnv } from '../support.js';

const SESSION = '0b1e2c3d-4f50-4617-8899-aabbccddeeff';

const SNAPSHOT = `# a shell snapshot, as Claude Code writes one
greet() { echo "hello $1"; }
nvm() { if [ "$1" = use ]; then export NVM_VERSION="v$2"; echo "Now using node v$2"; else return 3; fi; }
conda() { echo "conda $*"; }
alias say='echo said:'
alias ll='ls -1'
export SNAPSHOT_VAR=from-snapshot
shopt -s expand_aliases
`;

interface Case {
  command: string;
  /** False when the hook must leave it alone. */
  wrap?: boolean;
  /** The agent's view must start with the unwrapped output (default: when short and printable). */
  shown?: boolean;
  view?: boolean;
  /**
   * The output a terminal shows, where it differs from the harness's unwrapped run: Claude Code
   * sends a command's output to a file, so `> /dev/stderr` truncates it there too (issue 20 #2).
   */
  terminal?: string;
}

// biome-ignore format: a table
const CASES: Case[] = [
  { command: 'echo hello' },
  // issue 20 #2: a command that reopens /dev/stderr or /dev/stdout writes into a pipe, not the file
  { command: 'echo one; echo two; echo "error: bad" > /dev/stderr; echo three; exit 1', terminal: 'one\ntwo\nerror: bad\nthree\n' },
  { command: 'seq 1 5000; echo e > /dev/stdout; seq 1 3', shown: false, terminal: `${Array.from({ length: 5000 }, (_, i) => i + 1).join('\n')}\ne\n1\n2\n3\n` },
  { command: 'echo out | tee /dev/stderr | tr a-z A-Z', terminal: 'out\nOUT\n' },
  { command: "printf 'a\\nb\\nc\\n'" },
  { command: 'greet world' },
  { command: 'say hi there' },
  { command: 'll' },
  { command: 'nvm use 20 && echo "$NVM_VERSION"' },
  { command: 'nvm bogus' },
  { command: 'conda activate base && echo "$SNAPSHOT_VAR"' },
  { command: 'cd sub && pwd' },
  { command: 'cd sub' },
  { command: 'cd /nonexistent-dir-xyz && echo never' },
  { command: 'export FOO=bar && echo "$FOO"' },
  { command: 'exit 3' },
  { command: 'echo before; exit 3' },
  { command: 'false; exit' },
  { command: 'false' },
  { command: 'true' },
  { command: 'ls missing-file' },
  { command: 'cat <<EOF\nline one\n  line two\nEOF' },
  { command: 'cat <<EOF\nno newline after the delimiter\nEOF' },
  { command: 'cat <<-END\n\tstripped tabs\n\tEND\necho after' },
  { command: "cat <<'EOF' | sort\nb $HOME\na\nEOF" },
  { command: 'set -e; false; echo after-false' },
  { command: 'set -e\nfalse\necho after' },
  { command: 'set -o pipefail; false | true; echo "status $?"' },
  { command: "printf '3\\n1\\n2\\n' | sort" },
  { command: '(cd sub && pwd); pwd' },
  { command: '( exit 4 )' },
  { command: '{ echo grouped; }' },
  { command: 'for i in 1 2 3; do echo "n$i"; done' },
  { command: 'if [ -d sub ]; then echo yes; else echo no; fi' },
  { command: 'echo err >&2' },
  { command: 'echo out; echo err >&2; echo out2' },
  { command: 'seq 1 3000', shown: false },
  { command: 'seq 1 50 | tail -5', view: true },
  { command: 'seq 1 50 2>&1 | tail -n 5', view: true },
  { command: 'seq 1 50 | head -3', view: true },
  { command: 'yes | head -2', view: true },
  { command: 'seq 1 20 |& tail -2', view: true },
  { command: '(echo o; echo e >&2) 2>&1 | tail -n 1', view: true },
  { command: 'echo hi\r\n', shown: false },
  { command: 'echo a\vb', shown: false },
  { command: 'echo a\fb', shown: false },
  { command: 'echo a\u00a0b' },
  { command: 'exit 3\r\n', shown: false },
  { command: `echo "quotes 'inside'" 'and "these"'` },
  { command: "echo $'tab\\there'" },
  { command: 'x=5; echo $((x*2))' },
  { command: 'f() { echo in-f; return 5; }; f' },
  { command: 'greet; echo "status $?"' },
  { command: '# a comment\necho after-comment # trailing' },
  { command: 'echo a && echo b || echo c' },
  { command: 'false || echo recovered' },
  { command: "sh -c 'exit 7'" },
  { command: "sh -c 'kill -TERM $$'" },
  { command: "printf 'no newline'" },
  { command: "printf 'bin\\000ary\\001'", shown: false },
  { command: 'read x; echo "got[$x]"' },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
  { command: 'unset HOME; echo "${HOME:-none}"' },
  { command: 'umask 077 && umask' },
  { command: 'pushd sub >/dev/null && pwd' },
  { command: 'source ./vars.sh && echo "$SRCVAR"' },
  { command: '. ./vars.sh; echo "$SRCVAR"' },
  { command: 'echo `echo backtick` $(echo dollar-paren)' },
  { command: "printf '%s\\n' {1..3}" },
  { command: 'ls | wc -l' },
  { command: "echo 'it'\"'\"'s'" },
  { command: 'trap "echo bye" EXIT; echo x', wrap: false },
  { command: 'exec echo replaced', wrap: false },
  { command: 'sleep 0.1 &', wrap: false },
  { command: 'alias zz=ls; echo defined', wrap: false },
];

let root: string;
let project: string;
let runDir: string;
let snapshot: string;
let env: Record<string, string>;

beforeAll(() => {
  // One directory for the whole file (the shared tempDir is removed after each test).
  root = mkdtempSync(join(tmpdir(), 'ctxwrap-harness-'));
  project = join(root, 'project');
  runDir = join(root, 'run');
  mkdirSync(join(project, 'sub'), { recursive: true });
  writeFileSync(join(project, 'vars.sh'), 'SRCVAR=sourced\n');
  writeFileSync(join(project, 'a.txt'), 'a\n');
  snapshot = join(root, 'snapshot-bash.sh');
  writeFileSync(snapshot, SNAPSHOT);
  env = cleanEnv(runDir, { HOME: join(root, 'home'), SHELL: '/bin/bash' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Bash names the line of the command in its own messages (`bash: line 1: cd: ...`); it counts
 * lines as it reads them, and the wrapper's closing line is read with the command, so the
 * number can differ. The one difference allowed, in bash's own diagnostics only.
 */
const sameLines = (text: string) => text.replace(/^(\/bin\/bash: line )\d+:/gm, '$1N:');

/** Runs a command as Claude Code's Bash tool does; stdout and stderr go to one file, in order. */
function asClaudeCode(command: string, tag: string): { status: number | null; output: string; cwd: string } {
  const out = join(root, `${tag}.out`);
  const cwdFile = join(root, `${tag}.cwd`);
  rmSync(cwdFile, { force: true });
  const quoted = `'${command.replace(/'/g, `'\\''`)}'`;
  const script = `source ${snapshot} 2>/dev/null || true && eval ${quoted} < /dev/null && pwd -P >| ${cwdFile}`;
  const fd = openSync(out, 'w');
  try {
    const r = spawnSync('/bin/bash', ['-c', script], {
      cwd: project,
      env,
      stdio: ['ignore', fd, fd],
      timeout: 30_000,
    });
    let cwd = '';
    try {
      cwd = readFileSync(cwdFile, 'utf8');
    } catch {
      /* the command ended the shell before pwd */
    }
    return { status: r.status, output: readFileSync(out, 'latin1'), cwd };
  } finally {
    closeSync(fd);
  }
}

/**
 * The hook's answer for a command: the rewritten command, or undefined when left alone. Asked
 * in-process (runHook is what `ctxwrap hook claude` runs on its stdin; hook-claude.test.ts spawns
 * the hook itself): what this file tests is how the rewritten command runs in the agent's shell.
 */
function hook(command: string): { command: string | undefined; allow: boolean } {
  const payload = JSON.stringify({
    session_id: SESSION,
    cwd: project,
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'harness' },
  });
  let stdout = '';
  const status = runHook({
    agent: 'claude',
    input: payload,
    env,
    scriptPath: BIN,
    // The spawned hook's parent was this worker: the same rules are found from it.
    parentPid: process.pid,
    print: (text) => {
      stdout += text;
    },
  });
  expect(status).toBe(0);
  if (stdout.trim() === '') return { command: undefined, allow: false };
  const answer = JSON.parse(stdout).hookSpecificOutput;
  expect(answer.hookEventName).toBe('PreToolUse');
  return { command: answer.updatedInput.command, allow: answer.permissionDecision === 'allow' };
}

describe('the in-shell hook under a Claude Code harness', () => {
  it('has at least 50 commands it wraps', () => {
    expect(CASES.filter((c) => c.wrap !== false).length).toBeGreaterThanOrEqual(50);
  });

  it.each(CASES.map((c, i) => [i, JSON.stringify(c.command), c] as const))('#%i %s', (i, _name, c) => {
    const answer = hook(c.command);
    if (c.wrap === false) {
      expect(answer.command).toBeUndefined();
      return;
    }
    expect(answer.command).toBeDefined();
    const wrapped = answer.command as string;
    // The original text is in the wrapped command as written, not re-quoted.
    if (!c.view) expect(wrapped).toContain(`{ ${c.command}\n}`);
    const plain = asClaudeCode(c.command, `plain-${i}`);
    const through = asClaudeCode(wrapped, `wrapped-${i}`);
    const id = /_finish --run-dir \S+ ([a-z0-9-]+_[0-9a-f]{8})/.exec(wrapped)?.[1] as string;
    const stored = readFileSync(join(runDir, 'sessions', SESSION, 'tool_results', `${id}.txt`), 'latin1');
    const context = `unwrapped:\n${plain.output}\nwrapped:\n${through.output}\ncommand:\n${wrapped}`;

    expect(through.status, context).toBe(plain.status);
    expect(through.cwd, context).toBe(plain.cwd);
    if (c.view) {
      // The agent sees what it asked for, then the line with the id; the file keeps more.
      expect(through.output.startsWith(plain.output), context).toBe(true);
      expect(through.output.slice(plain.output.length), context).toMatch(
        new RegExp(`^\\[ctxwrap ${id}\\] the lines above are .* full output: `),
      );
      expect(stored.length, context).toBeGreaterThanOrEqual(plain.output.length);
      expect(stored.endsWith(plain.output) || stored.startsWith(plain.output), context).toBe(true);
      return;
    }
    // Every byte the command wrote is stored, exactly as the agent would have seen it.
    const reference = c.terminal ?? plain.output;
    expect(sameLines(stored), context).toBe(sameLines(reference));
    const shown = c.shown ?? true;
    if (shown) expect(sameLines(through.output).startsWith(sameLines(reference)), context).toBe(true);
    else if (plain.status !== 0 || plain.output.length > 2000)
      expect(through.output, context).toContain(`[ctxwrap ${id}]`);
    else expect(through.output.length, context).toBeGreaterThan(0);
    const meta = JSON.parse(
      readFileSync(join(runDir, 'sessions', SESSION, 'tool_results', `${id}.json`), 'utf8'),
    );
    expect(meta.state).toBe('complete');
    expect(meta.exitCode).toBe(plain.status);
    // The docs promise 0600 for stored output.
    expect(statSync(join(runDir, 'sessions', SESSION, 'tool_results', `${id}.txt`)).mode & 0o777).toBe(0o600);
  });
});
