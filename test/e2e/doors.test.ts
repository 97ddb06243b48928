// `ctxwrap init codex|gemini|opencode [--global] [--uninstall]` against temporary homes and
// projects (uninstall puts back every file byte for byte), and `ctxwrap hook codex|gemini|opencode`
// fed payloads in each agent's documented shape (fixtures/hooks), its answer checked against the
// documented output schema, and the rewritten command run by bash.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../support.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function box() {
  const root = mkdtempSync(join(tmpdir(), 'ctxwrap-doors-'));
  dirs.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const env = cleanEnv(join(root, 'run'), { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  return { root, home, project, env };
}

function ctxwrap(args: string[], b: ReturnType<typeof box>, input?: string) {
  const r = spawnSync('node', [BIN, ...args], {
    cwd: b.project,
    env: b.env,
    encoding: 'utf8',
    timeout: 30_000,
    ...(input !== undefined ? { input } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under a directory, path → bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[p.slice(dir.length)] = readFileSync(p, 'latin1');
    }
  };
  walk(dir);
  return out;
}

interface DoorCase {
  agent: string;
  /** Files a user already has, relative to the project (or home with --global). */
  existing: Record<string, string>;
  hookFile: string;
  global: boolean;
}

// biome-ignore format: a table
const CASES: DoorCase[] = [
  { agent: 'codex', global: false, hookFile: '.codex/hooks.json',
    existing: { '.codex/hooks.json': '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "notify" }] }]\n  }\n}\n', 'AGENTS.md': '# Agents\n\nUse pnpm.\n' } },
  { agent: 'codex', global: true, hookFile: '.codex/hooks.json', existing: {} },
  { agent: 'gemini', global: false, hookFile: '.gemini/settings.json',
    existing: { '.gemini/settings.json': '{"theme":"GitHub","hooks":{"BeforeTool":[{"matcher":"write_file","hooks":[{"type":"command","command":"lint"}]}]}}', 'GEMINI.md': 'Be brief.\n' } },
  { agent: 'gemini', global: true, hookFile: '.gemini/settings.json', existing: { '.gemini/settings.json': '{ "general": { "vimMode": true } }\n' } },
  { agent: 'opencode', global: false, hookFile: '.opencode/plugins/ctxwrap.js',
    existing: { 'opencode.json': '{ "$schema": "https://opencode.ai/config.json" }\n', 'AGENTS.md': '# Project rules\n' } },
  { agent: 'opencode', global: true, hookFile: '.config/opencode/plugins/ctxwrap.js', existing: {} },
];

describe('ctxwrap init <agent>: install, again, uninstall', () => {
  it.each(CASES.map((c) => [`${c.agent}${c.global ? ' --global' : ''}`, c] as const))('%s', (_name, c) => {
    const b = box();
    const base = c.global ? b.home : b.project;
    for (const [rel, text] of Object.entries(c.existing)) {
      mkdirSync(dirname(join(base, rel)), { recursive: true });
      writeFileSync(join(base, rel), text);
    }
    const before = { home: tree(b.home), project: tree(b.project) };
    const flags = c.global ? ['--global'] : [];

    const install = ctxwrap(['init', c.agent, ...flags], b);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    const hookPath = join(c.global ? b.home : b.project, c.hookFile);
    const installed = readFileSync(hookPath, 'utf8');
    if (c.agent === 'opencode') {
      expect(installed).toContain("'tool.execute.before'");
      expect(installed).toContain('hook opencode');
    } else {
      const settings = JSON.parse(installed);
      const event = c.agent === 'codex' ? 'PreToolUse' : 'BeforeTool';
      const group = settings.hooks[event].at(-1);
      expect(group.matcher).toBe(c.agent === 'codex' ? 'Bash' : 'run_shell_command');
      expect(group.hooks).toEqual([
        {
          type: 'command',
          command: expect.stringMatching(new RegExp(`hook ${c.agent}$`)),
          timeout: c.agent === 'gemini' ? 10000 : 10,
        },
      ]);
      // Everything the user had is still there.
      for (const [rel, text] of Object.entries(c.existing))
        if (rel === c.hookFile)
          for (const key of Object.keys(JSON.parse(text))) expect(settings).toHaveProperty(key);
    }
    const after = { home: tree(b.home), project: tree(b.project) };
    expect(ctxwrap(['init', c.agent, ...flags], b).code).toBe(0);
    expect({ home: tree(b.home), project: tree(b.project) }, 'running it twice changes nothing').toEqual({
      home: { ...after.home, ...backups(tree(b.home)) },
      project: { ...after.project, ...backups(tree(b.project)) },
    });

    const remove = ctxwrap(['init', c.agent, ...flags, '--uninstall'], b);
    expect(remove.code).toBe(0);
    expect({ home: tree(b.home), project: tree(b.project) }).toEqual(before);
  });
});

/** Backup files init may leave between runs (they go with the uninstall). */
function backups(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([p]) => p.endsWith('.ctxwrap-backup')));
}

/** A fixture payload with this box's project and a session id of its own. */
function payload(
  name: string,
  b: ReturnType<typeof box>,
  change: (p: Record<string, unknown>) => void = () => {},
) {
  const p = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'hooks', name), 'utf8'));
  p.cwd = b.project;
  change(p);
  return JSON.stringify(p);
}

/** Runs a command text with bash in the project: output (both streams) and status. */
function bash(command: string, b: ReturnType<typeof box>) {
  const r = spawnSync('bash', ['-c', `eval "$CMD" < /dev/null 2>&1`], {
    cwd: b.project,
    env: { ...b.env, CMD: command },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout };
}

describe('ctxwrap hook <agent> with payloads in the documented shape', () => {
  it('codex: PreToolUse answers allow with updatedInput, only when Codex asks nothing anyway', () => {
    const b = box();
    writeFileSync(join(b.project, 'package.json'), '{"scripts":{"test":"echo ok; echo fail >&2; exit 1"}}');
    const r = ctxwrap(['hook', 'codex'], b, payload('codex-pretooluse-bash.json', b));
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    // The documented output: hookSpecificOutput with exactly these fields (Codex rejects others).
    expect(Object.keys(answer)).toEqual(['hookSpecificOutput']);
    expect(Object.keys(answer.hookSpecificOutput).sort()).toEqual(
      ['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'updatedInput'].sort(),
    );
    expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(answer.hookSpecificOutput.permissionDecision).toBe('allow');
    const wrapped = answer.hookSpecificOutput.updatedInput.command as string;
    const original = 'npm test 2>&1 | tail -n 40';
    const plain = bash(original, b);
    const through = bash(wrapped, b);
    expect(through.code).toBe(plain.code);
    expect(through.out.startsWith(plain.out)).toBe(true);
    expect(through.out.slice(plain.out.length)).toMatch(
      /^\[ctxwrap npm_[0-9a-f]{8}\] the lines above are `tail -n 40`/,
    );

    for (const mode of ['default', 'acceptEdits', undefined]) {
      const left = ctxwrap(
        ['hook', 'codex'],
        b,
        payload('codex-pretooluse-bash.json', b, (p) => {
          p.permission_mode = mode;
        }),
      );
      expect(left).toEqual({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('gemini: BeforeTool answers hookSpecificOutput.tool_input, and {} when it leaves the call alone', () => {
    const b = box();
    writeFileSync(join(b.project, 'Makefile'), 'check:\n\t@echo checking; exit 2\n');
    const r = ctxwrap(['hook', 'gemini'], b, payload('gemini-beforetool-shell.json', b));
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(Object.keys(answer)).toEqual(['hookSpecificOutput']);
    expect(Object.keys(answer.hookSpecificOutput)).toEqual(['tool_input']);
    const wrapped = answer.hookSpecificOutput.tool_input.command as string;
    // Gemini replaces the arguments with tool_input: every other field comes back as it was (issue 22 #2).
    expect({ ...answer.hookSpecificOutput.tool_input, command: 'make check' }).toEqual({
      command: 'make check',
      description: 'Run the checks',
      dir_path: '.',
    });
    const background = ctxwrap(
      ['hook', 'gemini'],
      b,
      payload('gemini-beforetool-shell.json', b, (p) => {
        (p.tool_input as Record<string, unknown>).is_background = true;
      }),
    );
    expect(background).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    const plain = bash('make check', b);
    const through = bash(wrapped, b);
    expect(through.code).toBe(plain.code);
    expect(through.out.startsWith(plain.out)).toBe(true);
    const other = ctxwrap(
      ['hook', 'gemini'],
      b,
      payload('gemini-beforetool-shell.json', b, (p) => {
        p.tool_name = 'read_file';
      }),
    );
    expect(other).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    expect(ctxwrap(['hook', 'gemini'], b, 'not json')).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });

  it('gemini: a command an entry of tools.allowed may allow is left alone (Gemini checks the text it runs)', () => {
    const b = box();
    mkdirSync(join(b.project, '.gemini'));
    writeFileSync(
      join(b.project, '.gemini', 'settings.json'),
      '{ // comments are allowed\n "tools": { "allowed": ["run_shell_command(make check)", "read_file"] } }\n',
    );
    const allowed = ctxwrap(['hook', 'gemini'], b, payload('gemini-beforetool-shell.json', b));
    expect(allowed).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    const other = ctxwrap(
      ['hook', 'gemini'],
      b,
      payload('gemini-beforetool-shell.json', b, (p) => {
        (p.tool_input as Record<string, unknown>).command = 'make build';
      }),
    );
    expect(JSON.parse(other.stdout).hookSpecificOutput.tool_input.command).toContain('{ make build\n}');
    // The whole tool allowed: nothing is wrapped.
    mkdirSync(join(b.home, '.gemini'));
    writeFileSync(join(b.home, '.gemini', 'settings.json'), '{"tools":{"allowed":["run_shell_command"]}}');
    const all = ctxwrap(
      ['hook', 'gemini'],
      b,
      payload('gemini-beforetool-shell.json', b, (p) => {
        (p.tool_input as Record<string, unknown>).command = 'make build';
      }),
    );
    expect(all).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });

  it('gemini: a command an allow rule of a policy file may allow is left alone (auto-saved "always allow")', () => {
    const b = box();
    mkdirSync(join(b.project, '.gemini', 'policies'), { recursive: true });
    writeFileSync(
      join(b.project, '.gemini', 'policies', 'auto-saved.toml'),
      '[[rule]]\ntoolName = "read_file"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["git status", "make check"]\ndecision = "allow"\npriority = 100\n',
    );
    const make = (command: string) =>
      ctxwrap(
        ['hook', 'gemini'],
        b,
        payload('gemini-beforetool-shell.json', b, (p) => {
          (p.tool_input as Record<string, unknown>).command = command;
        }),
      );
    expect(make('make check')).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    expect(make('make build').stdout).toContain('{ make build\\n}');
    // A rule for the whole tool (a regex ctxwrap does not evaluate): nothing is wrapped.
    mkdirSync(join(b.home, '.gemini', 'policies'), { recursive: true });
    writeFileSync(
      join(b.home, '.gemini', 'policies', 'mine.toml'),
      "[[rule]]\ntoolName = 'run_shell_command'\ncommandRegex = '^npm '\ndecision = 'allow'\n",
    );
    expect(make('make build')).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });

  it('opencode: the plugin leaves the command alone and gives the model the summary of what ran', async () => {
    const b = box();
    expect(ctxwrap(['init', 'opencode'], b).code).toBe(0);
    // opencode loads the plugin as an ES module; node needs the .mjs name to do the same.
    const plugin = join(b.root, 'plugin.mjs');
    copyFileSync(join(b.project, '.opencode', 'plugins', 'ctxwrap.js'), plugin);
    const mod = await import(pathToFileURL(plugin).href);
    const saved = { ...process.env };
    Object.assign(process.env, b.env);
    try {
      const hooks = await mod.CtxwrapPlugin({ directory: b.project });
      // opencode checks its permission rules on args.command after this hook: it must not change.
      const args = { command: 'seq 1 3000; exit 4', workdir: 'sub' };
      const call = { tool: 'bash', sessionID: 'ses_5b2c1d9e7f3aXyZ', callID: 'c1' };
      await hooks['tool.execute.before'](call, { args });
      expect(args).toEqual({ command: 'seq 1 3000; exit 4', workdir: 'sub' });
      const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join('');
      const result = {
        title: args.command,
        output: lines,
        metadata: { output: lines, exit: 4, truncated: false },
      };
      await hooks['tool.execute.after']({ ...call, args }, result);
      expect(result.output).toMatch(/^\[ctxwrap seq_([0-9a-f]{8})\] exit 4 · 3,000 lines/);
      expect(result.output).toContain('lines omitted');
      const id = /\[ctxwrap (seq_[0-9a-f]{8})\]/.exec(result.output)?.[1] ?? '';
      const runDir = join(b.env.CTXWRAP_RUN_DIR as string, 'sessions', 'ses_5b2c1d9e7f3aXyZ');
      expect(readFileSync(join(runDir, 'tool_results', `${id}.txt`), 'utf8')).toBe(lines);
      expect(JSON.parse(readFileSync(join(runDir, 'tool_results', `${id}.json`), 'utf8')).cwd).toBe(
        join(b.project, 'sub'),
      );
      // Cut by opencode: the whole output is read from the file opencode saved it to.
      const saved2 = join(b.root, 'tool_output_1');
      writeFileSync(saved2, lines);
      const cut = {
        output: `...output truncated...\n\nFull output saved to: ${saved2}\n\n3000\n`,
        metadata: { exit: 0, truncated: true, outputPath: saved2 },
      };
      await hooks['tool.execute.after']({ ...call, callID: 'c2', args: { command: 'seq 1 3000' } }, cut);
      expect(cut.output).toMatch(/^\[ctxwrap seq_[0-9a-f]{8}\] exit 0 · 3,000 lines/);
      // A timeout (no exit status) keeps opencode's own note; another tool is not touched.
      const late = {
        output: 'started\n\n<shell_metadata>\ntimeout\n</shell_metadata>',
        metadata: { exit: null },
      };
      await hooks['tool.execute.after']({ ...call, callID: 'c3', args: { command: 'sleep 9' } }, late);
      expect(late.output).toBe('started\n\n<shell_metadata>\ntimeout\n</shell_metadata>');
      // An opencode that gives the arguments only to the hook before the call.
      const older = { output: lines, metadata: { exit: 0, truncated: false } };
      await hooks['tool.execute.before']({ ...call, callID: 'c4' }, { args: { command: 'seq 1 3000' } });
      await hooks['tool.execute.after']({ ...call, callID: 'c4' }, older);
      expect(older.output).toMatch(/^\[ctxwrap seq_[0-9a-f]{8}\] exit 0 · 3,000 lines/);
      const read = { output: 'file text', metadata: {} };
      await hooks['tool.execute.after']({ tool: 'read', sessionID: 'ses_1', args: { filePath: 'x' } }, read);
      expect(read.output).toBe('file text');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    const direct = ctxwrap(['hook', 'opencode'], b, payload('opencode-bash.json', b));
    expect(Object.keys(JSON.parse(direct.stdout))).toEqual(['output']);
    expect(JSON.parse(direct.stdout).output).toMatch(
      /FAILED test_a\.py::test_one[\s\S]*\[ctxwrap pytest_[0-9a-f]{8}\] exit 1/,
    );
    // The plugin of an older ctxwrap (a rewrite before the call) gets no answer: the command runs as written.
    const old = ctxwrap(
      ['hook', 'opencode'],
      b,
      JSON.stringify({ session_id: 'ses_1', cwd: b.project, command: 'ls' }),
    );
    expect(old).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(b.project, '.opencode'))).toBe(true);
  });
});
