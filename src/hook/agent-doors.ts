/**
 * Where each agent keeps its hooks and its instructions, for `ctxwrap init <agent>`. Each entry
 * follows the agent's own documentation, as read on 2026-11-23:
 * - Claude Code: hooks reference (code.claude.com/docs/en/hooks): `hooks.PreToolUse` in
 *   `.claude/settings.json` or `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`), timeout in seconds.
 * - Codex CLI (0.153+; developers.openai.com/codex/hooks): `hooks.PreToolUse` with matcher `Bash`
 *   in `.codex/hooks.json` or `~/.codex/hooks.json` (`$CODEX_HOME`), the same JSON as Claude
 *   Code's, timeout in seconds; instructions in AGENTS.md.
 * - Gemini CLI (docs/hooks/reference.md of google-gemini/gemini-cli): `hooks.BeforeTool` with
 *   matcher `run_shell_command` in `.gemini/settings.json` or `~/.gemini/settings.json`, timeout
 *   in milliseconds; instructions in GEMINI.md.
 * - opencode (opencode.ai/docs/plugins): a plugin file in `.opencode/plugins/` or
 *   `~/.config/opencode/plugins/`, loaded at start-up; instructions in AGENTS.md.
 */
import { join } from 'node:path';
import { CLAUDE_LAYOUT, type HookLayout } from './claude-settings.js';

interface Where {
  global: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
}

export interface AgentDoor {
  /** The settings or hooks file (or, for opencode, the plugin file). */
  hookFile: (w: Where) => string;
  /** The agent's instructions file, where the prompt text goes. */
  memoryFile: (w: Where) => string;
  /** How the hooks sit in the settings file; undefined for a plugin file. */
  layout?: HookLayout;
  /** The agent versions this door was written for, and how far it was tested (printed by init). */
  tested: string;
  /** What the user still has to do after init (printed by init). */
  remains: string;
}

const claudeDir = (w: Where) => w.env.CLAUDE_CONFIG_DIR || join(w.home, '.claude');
const codexDir = (w: Where) => w.env.CODEX_HOME || join(w.home, '.codex');
const configDir = (w: Where) => w.env.XDG_CONFIG_HOME || join(w.home, '.config');

export const AGENT_DOORS: Record<string, AgentDoor> = {
  claude: {
    hookFile: (w) =>
      w.global ? join(claudeDir(w), 'settings.json') : join(w.cwd, '.claude', 'settings.json'),
    memoryFile: (w) => (w.global ? join(claudeDir(w), 'CLAUDE.md') : join(w.cwd, 'CLAUDE.md')),
    layout: CLAUDE_LAYOUT,
    tested: 'Claude Code 2.1.332, driven through its own tool loop (npm run test:agents)',
    remains:
      'restart Claude Code (it reads hooks when a session starts); commands it runs without asking (read-only ones, acceptEdits edits, a sandbox) stay unwrapped so that it still does',
  },
  codex: {
    hookFile: (w) => (w.global ? join(codexDir(w), 'hooks.json') : join(w.cwd, '.codex', 'hooks.json')),
    memoryFile: (w) => (w.global ? join(codexDir(w), 'AGENTS.md') : join(w.cwd, 'AGENTS.md')),
    layout: { events: [{ event: 'PreToolUse', matcher: 'Bash' }], timeout: 10 },
    tested:
      'Codex CLI 0.169.0, driven through codex exec with approvals and sandbox bypassed (npm run test:agents); hooks since 0.153',
    remains:
      'trust this project and approve the hook when Codex asks (codex exec skips an untrusted hook without a word); Codex applies a rewrite only with its approval, so commands are wrapped only in bypassPermissions',
  },
  gemini: {
    hookFile: (w) =>
      w.global ? join(w.home, '.gemini', 'settings.json') : join(w.cwd, '.gemini', 'settings.json'),
    memoryFile: (w) => (w.global ? join(w.home, '.gemini', 'GEMINI.md') : join(w.cwd, 'GEMINI.md')),
    layout: { events: [{ event: 'BeforeTool', matcher: 'run_shell_command' }], timeout: 10_000 },
    tested: 'Gemini CLI 0.61.0, driven through its own tool loop with --yolo (npm run test:agents)',
    remains:
      'restart Gemini CLI and accept its warning about project hooks; an allow-list in tools.allowed sees the wrapped text',
  },
  opencode: {
    hookFile: (w) =>
      w.global
        ? join(configDir(w), 'opencode', 'plugins', 'ctxwrap.js')
        : join(w.cwd, '.opencode', 'plugins', 'ctxwrap.js'),
    memoryFile: (w) => (w.global ? join(configDir(w), 'opencode', 'AGENTS.md') : join(w.cwd, 'AGENTS.md')),
    tested: 'opencode 1.18.33, plugin API V1, driven through its own tool loop (npm run test:agents)',
    remains:
      'restart opencode (the command runs as written, so permission.bash rules see it unchanged; only the output the model gets is the summary)',
  },
};
