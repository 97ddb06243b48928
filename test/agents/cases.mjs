/**
 * The cases the harness runs in each agent, with and without ctxwrap. A case gives the shell
 * tool's input; the harness compares what came back.
 */

const cmd =
  (command, extra = {}) =>
  () => ({ command, ...extra });

/** The shapes every agent gets (issue 22's list), as plain commands. */
export const SHAPES = [
  { name: 'view: seq 1 300 | tail -3', input: cmd('seq 1 300 | tail -3') },
  { name: 'cd sub && make', input: cmd('cd sub && make') },
  { name: 'pwd after cd', input: cmd('pwd') },
  { name: 'cd back', input: (w) => ({ command: `cd ${w.proj}` }) },
  { name: 'heredoc', input: cmd("cat <<'EOF'\nline a\nline b\nEOF") },
  {
    name: 'stderr reopened, exit 1',
    input: cmd('echo one; echo two; echo "error: bad" > /dev/stderr; echo three; exit 1'),
    // Claude Code without ctxwrap sends the output to a file that `> /dev/stderr` truncates: the
    // model got 'error: bad\nthree'; through ctxwrap's pipe it gets all four lines (issue 20 #2).
    textMayDiffer: true,
  },
  { name: 'big output', input: cmd('seq 1 3000') },
  { name: 'already wrapped', input: cmd('ctxwrap -- echo wrapped') },
  { name: 'vim (no terminal)', input: cmd('vim -es -c q notes.txt; echo vim done') },
  { name: 'git commit without -m', input: cmd('git commit -q') },
  { name: 'trailing &', input: cmd('sleep 3 &') },
];

/** Claude Code's sessions: one per permission mode or rule source. */
export const CLAUDE_SESSIONS = [
  {
    name: 'default mode, deny Bash(rm:*)',
    settings: { permissions: { deny: ['Bash(rm:*)'] } },
    cases: [
      ...SHAPES,
      { name: 'function from .bashrc', input: cmd('greet world') },
      { name: 'alias from .bashrc', input: cmd('ll sub') },
      { name: 'read-only: git log --oneline -3', input: cmd('git log --oneline -3') },
      { name: 'mkdir -p d && touch d/f', input: cmd('mkdir -p d && touch d/f') },
      { name: 'read-only: ls -l sub', input: cmd('ls -l sub') },
      { name: 'read-only: cat package.json | head -5', input: cmd('cat package.json | head -5') },
      { name: 'not allowed: npm test', input: cmd('npm test') },
      { name: 'denied: rm -f notes.txt', input: cmd('rm -f notes.txt') },
      { name: 'run_in_background', input: cmd('sleep 1; echo bg', { run_in_background: true }) },
    ],
  },
  {
    name: "--allowedTools 'Bash(npm test:*)'",
    argv: ['--allowedTools', 'Bash(npm test:*)'],
    cases: [
      { name: 'allowed by flag: npm test', input: cmd('npm test') },
      { name: 'not allowed: npm run build', input: cmd('npm run build') },
    ],
  },
  {
    name: 'settings allow Bash(npm test:*), Bash(seq:*)',
    settings: { permissions: { allow: ['Bash(npm test:*)', 'Bash(seq:*)'] } },
    cases: [
      { name: 'allowed: npm test', input: cmd('npm test') },
      { name: 'allowed: big output', input: cmd('seq 1 3000') },
      { name: 'allowed, view', input: cmd('seq 1 300 | tail -3') },
    ],
  },
  {
    name: 'acceptEdits',
    argv: ['--permission-mode', 'acceptEdits'],
    cases: [
      { name: 'mkdir -p d && touch d/f', input: cmd('mkdir -p d && touch d/f') },
      { name: 'read-only: ls d', input: cmd('ls d') },
      { name: 'not allowed: npm test', input: cmd('npm test') },
    ],
  },
  {
    name: 'plan',
    argv: ['--permission-mode', 'plan'],
    cases: [
      { name: 'read-only: ls -l sub', input: cmd('ls -l sub') },
      { name: 'npm test', input: cmd('npm test') },
    ],
  },
  {
    name: 'bypassPermissions',
    argv: ['--dangerously-skip-permissions'],
    settings: { permissions: { deny: ['Bash(rm:*)'] } },
    cases: [
      ...SHAPES,
      { name: 'npm test', input: cmd('npm test') },
      { name: 'denied: rm -f notes.txt', input: cmd('rm -f notes.txt') },
    ],
  },
];

/**
 * Gemini CLI's sessions: yolo (everything approved). In its default mode `-p` does not offer
 * run_shell_command to the model at all (seen with 0.61.0), so there is nothing to compare.
 */
export const GEMINI_SESSIONS = [
  {
    name: '--yolo',
    argv: ['--yolo'],
    cases: [
      ...SHAPES,
      { name: 'dir_path sub: pwd', input: cmd('pwd', { dir_path: 'sub' }) },
      { name: 'is_background', input: cmd('sleep 2; echo bg', { is_background: true }) },
      { name: 'exit 3', input: cmd('echo before; exit 3') },
      { name: 'function from .bashrc', input: cmd('greet world') },
      { name: 'read-only: git log --oneline -3', input: cmd('git log --oneline -3') },
      { name: 'npm test', input: cmd('npm test') },
    ],
  },
  {
    name: 'default mode, tools.allowed run_shell_command(npm test), run_shell_command(seq)',
    settings: { tools: { allowed: ['run_shell_command(npm test)', 'run_shell_command(seq)'] } },
    cases: [
      { name: 'allowed: npm test', input: cmd('npm test') },
      { name: 'allowed: seq 1 3000', input: cmd('seq 1 3000') },
      { name: 'not allowed: npm run build', input: cmd('npm run build') },
      { name: 'not allowed: rm -f notes.txt', input: cmd('rm -f notes.txt') },
    ],
  },
];

/**
 * Codex CLI's sessions: `codex exec` with approvals and sandbox bypassed, where the hook
 * rewrites (elsewhere Codex applies a rewrite only with an `allow` the hook will not give).
 */
export const CODEX_SESSIONS = [
  {
    name: 'exec --dangerously-bypass-approvals-and-sandbox',
    argv: ['--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust'],
    cases: [
      ...SHAPES,
      { name: 'exit 3', input: cmd('echo before; exit 3') },
      { name: 'function from .bashrc', input: cmd('greet world') },
      { name: 'read-only: git log --oneline -3', input: cmd('git log --oneline -3') },
      { name: 'npm test', input: cmd('npm test') },
      { name: 'workdir sub: pwd', input: cmd('pwd', { workdir: 'sub' }) },
    ],
  },
  {
    // codex exec reports permission_mode bypassPermissions here too (issue 22 #4), so the hook
    // wraps. On the test machine the workspace-write sandbox did not stop a write outside the
    // project, with or without ctxwrap (no sandbox backend in the container).
    name: 'exec, default sandbox (workspace-write) and approvals',
    argv: ['--dangerously-bypass-hook-trust'],
    cases: [
      { name: 'big output', input: cmd('seq 1 3000') },
      { name: 'mkdir -p d && touch d/f', input: cmd('mkdir -p d && touch d/f') },
      { name: 'write outside: touch /tmp/…', input: (w) => ({ command: `touch ${w.base}/outside` }) },
      { name: 'exit 3', input: cmd('echo before; exit 3') },
    ],
  },
];

/**
 * opencode's sessions (`opencode run`). Its bash tool starts a new shell per call (no cd
 * persists, no .bashrc), takes `workdir` and `timeout`, and has no background flag. In `run`, a
 * rule answering `ask` is auto-rejected and ends the run: each session's asked case comes last.
 */
export const OPENCODE_SESSIONS = [
  {
    name: 'default permissions',
    cases: [
      ...SHAPES,
      { name: 'function from .bashrc', input: cmd('greet world') },
      { name: 'workdir sub: pwd', input: cmd('pwd', { workdir: 'sub' }) },
      { name: 'workdir sub: make', input: cmd('make', { workdir: 'sub' }) },
      { name: 'exit 3', input: cmd('echo before; exit 3') },
      { name: 'silent, exit 1', input: cmd('false') },
      { name: 'timeout 1000 ms', input: cmd('echo started; sleep 5; echo late', { timeout: 1000 }) },
      { name: 'read-only: git log --oneline -3', input: cmd('git log --oneline -3') },
      { name: 'rm -f notes.txt', input: cmd('rm -f notes.txt') },
      { name: 'asked: external dir, cat /etc/hostname', input: cmd('cat /etc/hostname') },
    ],
  },
  {
    name: 'permission.bash {"*": "ask", "npm test": "allow", "seq *": "allow", "tail *": "allow", "rm *": "deny"}',
    config: {
      permission: {
        bash: { '*': 'ask', 'npm test': 'allow', 'seq *': 'allow', 'tail *': 'allow', 'rm *': 'deny' },
      },
    },
    cases: [
      { name: 'allowed: npm test', input: cmd('npm test') },
      { name: 'allowed: seq 1 3000', input: cmd('seq 1 3000') },
      { name: 'allowed, view: seq 1 300 | tail -3', input: cmd('seq 1 300 | tail -3') },
      { name: 'denied: rm -f notes.txt', input: cmd('rm -f notes.txt') },
      { name: 'asked: npm run build', input: cmd('npm run build') },
    ],
  },
  {
    name: 'permission.bash {"*": "ask", "rm *": "deny"}, run --auto',
    config: { permission: { bash: { '*': 'ask', 'rm *': 'deny' } } },
    argv: ['--auto'],
    cases: [
      { name: 'auto-approved: npm test', input: cmd('npm test') },
      { name: 'auto-approved: seq 1 3000', input: cmd('seq 1 3000') },
      { name: 'denied: rm -f notes.txt', input: cmd('rm -f notes.txt') },
      { name: 'auto-approved: git commit without -m', input: cmd('git commit -q') },
    ],
  },
];
