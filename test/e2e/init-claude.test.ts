// `ctxwrap init claude` on a temp project (and a temp HOME for --global): installs the hooks and
// the instructions, changes nothing the second time, and --uninstall puts back what was there.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BLOCK_END, BLOCK_START } from '../../src/hook/claude-settings.js';
import { PROMPT_MARKDOWN } from '../../src/prompt-text.js';
import { ctxwrapSync, sandbox, shSync } from '../support.js';

let box: ReturnType<typeof sandbox>;
let project: string;
beforeEach(() => {
  box = sandbox();
  project = join(box.root, 'project');
  mkdirSync(project);
});

const init = (...args: string[]) => ctxwrapSync(['init', 'claude', ...args], { env: box.env, cwd: project });
const read = (path: string) => readFileSync(path, 'utf8');
const settingsPath = () => join(project, '.claude', 'settings.json');
const memoryPath = () => join(project, 'CLAUDE.md');

const OTHER_SETTINGS = `{
    "permissions": { "allow": ["Bash(ls)"], "deny": ["Bash(rm:*)"] },
    "hooks": {
        "PreToolUse": [{ "matcher": "Edit", "hooks": [{ "type": "command", "command": "echo edit" }] }],
        "Stop": [{ "hooks": [{ "type": "command", "command": "echo stop" }] }]
    },
    "model": "opus"
}
`;

describe('ctxwrap init claude', () => {
  it('sets up a project from nothing, and --uninstall leaves nothing behind', () => {
    const r = init();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `${settingsPath()}: installed the PreToolUse (Bash) and SessionStart hooks running 'ctxwrap hook claude'\n` +
        `${memoryPath()}: wrote the ctxwrap instructions\n` +
        'tested with: Claude Code 2.1.332, driven through its own tool loop (npm run test:agents)\n' +
        'still to do: restart Claude Code (it reads hooks when a session starts); commands it runs without asking (read-only ones, acceptEdits edits, a sandbox) stay unwrapped so that it still does\n',
    );
    const hook = { type: 'command', command: 'ctxwrap hook claude', timeout: 10 };
    expect(JSON.parse(read(settingsPath()))).toEqual({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }], SessionStart: [{ hooks: [hook] }] },
    });
    expect(read(memoryPath())).toBe(`${BLOCK_START}\n${PROMPT_MARKDOWN}${BLOCK_END}\n`);
    expect(existsSync(`${settingsPath()}.ctxwrap-backup`)).toBe(false);

    expect(init('--uninstall')).toMatchObject({
      exitCode: 0,
      stdout:
        `${settingsPath()}: removed the ctxwrap hooks (and the file, which ctxwrap had created)\n` +
        `${memoryPath()}: removed the ctxwrap instructions (and the file, left empty)\n`,
      stderr: '',
    });
    expect(existsSync(join(project, '.claude'))).toBe(false);
    expect(existsSync(memoryPath())).toBe(false);
  });

  it('keeps every other key and hook, backs the settings up, changes nothing the second time, and restores them byte for byte', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(settingsPath(), OTHER_SETTINGS);
    writeFileSync(memoryPath(), '# Project\n\nUse pnpm.\n');
    expect(init().exitCode).toBe(0);
    expect(read(`${settingsPath()}.ctxwrap-backup`)).toBe(OTHER_SETTINGS);
    const installed = JSON.parse(read(settingsPath()));
    const before = JSON.parse(OTHER_SETTINGS);
    expect(installed.permissions).toEqual(before.permissions);
    expect(installed.model).toBe('opus');
    expect(installed.hooks.Stop).toEqual(before.hooks.Stop);
    expect(installed.hooks.PreToolUse[0]).toEqual(before.hooks.PreToolUse[0]);
    expect(installed.hooks.PreToolUse[1].matcher).toBe('Bash');
    expect(read(memoryPath())).toBe(
      `# Project\n\nUse pnpm.\n\n${BLOCK_START}\n${PROMPT_MARKDOWN}${BLOCK_END}\n`,
    );

    const settingsText = read(settingsPath());
    const memoryText = read(memoryPath());
    expect(init()).toMatchObject({
      exitCode: 0,
      stdout: `${settingsPath()}: hooks already installed\n${memoryPath()}: instructions up to date\n`,
      stderr: '',
    });
    expect(read(settingsPath())).toBe(settingsText);
    expect(read(memoryPath())).toBe(memoryText);

    expect(init('--uninstall').exitCode).toBe(0);
    expect(read(settingsPath())).toBe(OTHER_SETTINGS);
    expect(read(memoryPath())).toBe('# Project\n\nUse pnpm.\n');
    expect(existsSync(`${settingsPath()}.ctxwrap-backup`)).toBe(false);
    expect(init('--uninstall').stdout).toBe(
      `${settingsPath()}: no ctxwrap hooks\n${memoryPath()}: no ctxwrap instructions\n`,
    );
  });

  it('replaces an old instructions block in place', () => {
    writeFileSync(memoryPath(), `# Top\n\n${BLOCK_START}\nold words\n${BLOCK_END}\n\n# Bottom\n`);
    expect(init().exitCode).toBe(0);
    expect(read(memoryPath())).toBe(`# Top\n\n${BLOCK_START}\n${PROMPT_MARKDOWN}${BLOCK_END}\n\n# Bottom\n`);
  });

  it('on uninstall keeps settings changed since, removing only its own hooks', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(settingsPath(), OTHER_SETTINGS);
    init();
    const changed = JSON.parse(read(settingsPath()));
    changed.model = 'sonnet';
    writeFileSync(settingsPath(), JSON.stringify(changed));
    expect(init('--uninstall').exitCode).toBe(0);
    expect(JSON.parse(read(settingsPath()))).toEqual({ ...JSON.parse(OTHER_SETTINGS), model: 'sonnet' });
  });

  it('with --global, sets up the user settings under HOME and leaves the project alone', () => {
    const r = init('--global');
    expect(r.exitCode).toBe(0);
    const user = join(box.home, '.claude');
    expect(JSON.parse(read(join(user, 'settings.json'))).hooks.PreToolUse[0].hooks[0].command).toBe(
      'ctxwrap hook claude',
    );
    expect(read(join(user, 'CLAUDE.md'))).toContain(PROMPT_MARKDOWN);
    expect(existsSync(join(project, '.claude'))).toBe(false);
    expect(existsSync(memoryPath())).toBe(false);
    expect(init('--global', '--uninstall').exitCode).toBe(0);
    expect(existsSync(join(user, 'settings.json'))).toBe(false);
    expect(existsSync(join(user, 'CLAUDE.md'))).toBe(false);
  });

  it('names ctxwrap by its path when it is not on PATH', () => {
    // A PATH with node alone: a ctxwrap installed on this machine (npm link) must not count.
    const nodeOnly = mkdtempSync(join(tmpdir(), 'ctxwrap-node-only-'));
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    const r = ctxwrapSync(['init', 'claude'], { env: { ...box.env, PATH: nodeOnly }, cwd: project });
    rmSync(nodeOnly, { recursive: true, force: true });
    expect(r.exitCode).toBe(0);
    const command = JSON.parse(read(settingsPath())).hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toMatch(/^\/\S+\/bin\/ctxwrap\.js hook claude$/);
  });

  it('installs a hook command that works as written', () => {
    init();
    const command = JSON.parse(read(settingsPath())).hooks.PreToolUse[0].hooks[0].command as string;
    const payload = JSON.stringify({
      session_id: 'abc-1',
      cwd: project,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm run lint' },
    });
    const r = shSync(command, { input: payload, env: box.env, cwd: project });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command).toMatch(
      /\{ npm run lint\n\} >&"\$__ctxwrap_fd" 2>&"\$__ctxwrap_fd2"\n.* _finish /,
    );
  });

  it('refuses a settings file that is not JSON, changing nothing', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(settingsPath(), '{ "model": ');
    expect(init()).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: ${settingsPath()} is not valid JSON; fix it by hand, then run this again\n`,
    });
    expect(read(settingsPath())).toBe('{ "model": ');
    expect(existsSync(memoryPath())).toBe(false);
  });

  it('refuses an unknown agent', () => {
    expect(ctxwrapSync(['init', 'cursor'], { env: box.env, cwd: project })).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr:
        "ctxwrap: command-argument value 'cursor' is invalid for argument 'agent'. Allowed choices are claude, codex, gemini, opencode. (see ctxwrap --help)\n",
    });
  });
});

describe('init writes through what the user has (issue 20 #11)', () => {
  it('writes through a symlinked settings.json and CLAUDE.md (dotfiles), and uninstall leaves the links', () => {
    const dotfiles = join(box.root, 'dotfiles');
    mkdirSync(dotfiles);
    const claudeDir = join(box.home, '.claude');
    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(join(dotfiles, 'settings.json'), OTHER_SETTINGS);
    writeFileSync(join(dotfiles, 'CLAUDE.md'), 'Be brief.\n');
    symlinkSync(join(dotfiles, 'settings.json'), join(claudeDir, 'settings.json'));
    symlinkSync(join(dotfiles, 'CLAUDE.md'), join(claudeDir, 'CLAUDE.md'));
    expect(init('--global').exitCode).toBe(0);
    expect(lstatSync(join(claudeDir, 'settings.json')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(claudeDir, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(read(join(dotfiles, 'settings.json'))).toContain('ctxwrap');
    expect(read(join(dotfiles, 'CLAUDE.md'))).toContain(BLOCK_START);
    expect(init('--global', '--uninstall').exitCode).toBe(0);
    expect(lstatSync(join(claudeDir, 'settings.json')).isSymbolicLink()).toBe(true);
    expect(read(join(dotfiles, 'settings.json'))).toBe(OTHER_SETTINGS);
    expect(read(join(dotfiles, 'CLAUDE.md'))).toBe('Be brief.\n');
  });

  it('keeps the mode of the settings file, puts back an empty one as empty, and leaves no backup behind', () => {
    mkdirSync(join(project, '.claude'));
    writeFileSync(settingsPath(), '');
    chmodSync(settingsPath(), 0o640);
    expect(init().exitCode).toBe(0);
    expect(statSync(settingsPath()).mode & 0o777).toBe(0o640);
    expect(init('--uninstall').exitCode).toBe(0);
    expect(read(settingsPath())).toBe('');
    expect(statSync(settingsPath()).mode & 0o777).toBe(0o640);
    // Edited between install and uninstall: the hooks go, the edit stays, no backup is left.
    expect(init().exitCode).toBe(0);
    const edited = JSON.parse(read(settingsPath()));
    writeFileSync(settingsPath(), JSON.stringify({ ...edited, model: 'opus' }));
    expect(init('--uninstall').exitCode).toBe(0);
    expect(JSON.parse(read(settingsPath()))).toEqual({ model: 'opus' });
    expect(existsSync(`${settingsPath()}.ctxwrap-backup`)).toBe(false);
  });
});

describe('init gemini (issue 20 #11)', () => {
  it('takes settings with comments, as Gemini does', () => {
    const dir = join(project, '.gemini');
    mkdirSync(dir);
    const withComments =
      '{\n  // the look\n  "theme": "GitHub", /* block */\n  "general": { "vimMode": true },\n}\n';
    writeFileSync(join(dir, 'settings.json'), withComments);
    const r = ctxwrapSync(['init', 'gemini'], { env: box.env, cwd: project });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(read(join(dir, 'settings.json'))).toContain('ctxwrap');
    expect(ctxwrapSync(['init', 'gemini', '--uninstall'], { env: box.env, cwd: project }).exitCode).toBe(0);
    expect(read(join(dir, 'settings.json'))).toBe(withComments);
  });
});
