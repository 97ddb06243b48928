/**
 * `ctxwrap init claude|codex|gemini|opencode [--global] [--uninstall]`: installs (or removes) the
 * agent's hook (Claude Code, Codex CLI, Gemini CLI: in their settings or hooks file; opencode: a
 * generated plugin file) and the instructions snippet in the agent's memory file (CLAUDE.md,
 * AGENTS.md, GEMINI.md). A settings file is backed up before it is changed; running it twice
 * changes nothing; removing it puts back what was there, byte for byte.
 */
import { copyFileSync, existsSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';
import { AGENT_DOORS, type AgentDoor } from '../hook/agent-doors.js';
import {
  canonicalJson,
  type HookLayout,
  withBlock,
  withCtxwrapHooks,
  withoutBlock,
  withoutCtxwrapHooks,
} from '../hook/claude-settings.js';
import { isOurPlugin, opencodePlugin } from '../hook/opencode-plugin.js';
import { selfCommand } from '../hook/self-command.js';
import { PROMPT_MARKDOWN } from '../prompt-text.js';
import { jsonWithoutComments, writeConfigFile } from '../store/edit-config-file.js';
import { reason } from '../store/run-dir.js';

export interface InitOptions {
  agent: string;
  /** The user's settings (`~/.claude`, or `$CLAUDE_CONFIG_DIR`) instead of the project's. */
  global?: boolean;
  uninstall?: boolean;
  /** The project directory (the current directory). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The running ctxwrap script, to name it in the hook command when `ctxwrap` is not on PATH. */
  scriptPath: string;
  print: (text: string) => void;
}

const INIT_AGENTS = ['claude', 'codex', 'gemini', 'opencode'] as const;

export function initAgent(opts: InitOptions): number {
  const door: AgentDoor | undefined = AGENT_DOORS[opts.agent];
  if (door === undefined || !(INIT_AGENTS as readonly string[]).includes(opts.agent)) {
    throw new CtxwrapError(`init takes ${INIT_AGENTS.join(', ')} (got '${opts.agent}')`);
  }
  const home = opts.env.HOME || homedir();
  const where = { global: opts.global === true, cwd: opts.cwd, env: opts.env, home };
  const hookFile = door.hookFile(where);
  const memoryFile = door.memoryFile(where);
  const self = selfCommand(opts.scriptPath, opts.env);
  if (opts.uninstall) {
    const did = door.layout ? uninstallHooks(hookFile, door.layout) : uninstallPlugin(hookFile);
    opts.print(`${hookFile}: ${did}\n`);
    opts.print(
      `${memoryFile}: ${editText(memoryFile, withoutBlock, 'removed the ctxwrap instructions', 'no ctxwrap instructions')}\n`,
    );
    return 0;
  }
  const did = door.layout
    ? installHooks(hookFile, `${self} hook ${opts.agent}`, door.layout)
    : installPlugin(hookFile, opencodePlugin(self));
  opts.print(`${hookFile}: ${did}\n`);
  opts.print(
    `${memoryFile}: ${editText(memoryFile, (t) => withBlock(t, PROMPT_MARKDOWN), 'wrote the ctxwrap instructions', 'instructions up to date')}\n`,
  );
  if (did !== 'hooks already installed' && did !== 'plugin up to date')
    opts.print(`tested with: ${door.tested}\nstill to do: ${door.remains}\n`);
  return 0;
}

/** Writes the opencode plugin, unless a file of someone else's is there. */
function installPlugin(file: string, text: string): string {
  const existing = readText(file);
  if (existing === text) return 'plugin up to date';
  if (existing !== undefined && !isOurPlugin(existing))
    throw new CtxwrapError(
      `${file} exists and is not ctxwrap's plugin; move it away, then run this again`,
      EXIT_FAILURE,
    );
  writeFile(file, text);
  return `wrote the ctxwrap plugin (tool.execute.after summarises bash output)`;
}

function uninstallPlugin(file: string): string {
  const existing = readText(file);
  if (existing === undefined) return 'no ctxwrap plugin';
  if (!isOurPlugin(existing)) return 'not ctxwrap’s plugin; left as it is';
  unlinkSync(file);
  removeIfEmpty(dirname(file));
  removeIfEmpty(dirname(dirname(file)));
  return 'removed the ctxwrap plugin';
}

const backupOf = (file: string) => `${file}.ctxwrap-backup`;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CtxwrapError(`cannot read ${file}: ${reason(error)}`, EXIT_FAILURE);
  }
}

function parseSettings(file: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(jsonWithoutComments(text));
  } catch {
    throw new CtxwrapError(`${file} is not valid JSON; fix it by hand, then run this again`, EXIT_FAILURE);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CtxwrapError(
      `${file} does not hold a JSON object; fix it by hand, then run this again`,
      EXIT_FAILURE,
    );
  }
  return value as Record<string, unknown>;
}

/** Writes through a temporary file and a rename, through a symlink, keeping the mode (see writeConfigFile). */
function writeFile(file: string, text: string): void {
  try {
    writeConfigFile(file, text);
  } catch (error) {
    throw new CtxwrapError(`cannot write ${file}: ${reason(error)}`, EXIT_FAILURE);
  }
}

function installHooks(file: string, command: string, layout: HookLayout): string {
  const text = readText(file);
  const next = withCtxwrapHooks(parseSettings(file, text), command, file, layout);
  if (next === undefined) return 'hooks already installed';
  let backup = '';
  if (text !== undefined) {
    copyFileSync(file, backupOf(file));
    backup = ` (backup: ${backupOf(file)})`;
  }
  writeFile(file, `${JSON.stringify(next, null, 2)}\n`);
  const events = layout.events.map((e) => (e.matcher ? `${e.event} (${e.matcher})` : e.event)).join(' and ');
  return `installed the ${events} hook${layout.events.length > 1 ? 's' : ''} running '${command}'${backup}`;
}

function uninstallHooks(file: string, layout: HookLayout): string {
  const text = readText(file);
  if (text === undefined) return 'no settings file';
  const next = withoutCtxwrapHooks(parseSettings(file, text), file, layout);
  if (next === undefined) return 'no ctxwrap hooks';
  const backup = backupOf(file);
  const saved = readText(backup);
  if (saved !== undefined && sameJson(saved, next)) {
    writeFile(file, saved);
    unlinkSync(backup);
    return `removed the ctxwrap hooks (restored ${backup})`;
  }
  if (Object.keys(next).length === 0 && saved === undefined) {
    unlinkSync(file);
    removeIfEmpty(dirname(file));
    return 'removed the ctxwrap hooks (and the file, which ctxwrap had created)';
  }
  // Edited since the install: the backup is of an older file, no use any more.
  if (saved !== undefined) unlinkSync(backup);
  writeFile(file, `${JSON.stringify(next, null, 2)}\n`);
  return 'removed the ctxwrap hooks, kept every other setting';
}

function sameJson(text: string, value: unknown): boolean {
  try {
    if (text.trim() === '') return canonicalJson({}) === canonicalJson(value);
    return canonicalJson(JSON.parse(jsonWithoutComments(text))) === canonicalJson(value);
  } catch {
    return false;
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* not empty, or not ours to remove */
  }
}

function editText(
  file: string,
  edit: (text: string) => string | undefined,
  did: string,
  unchanged: string,
): string {
  const text = readText(file);
  const next = edit(text ?? '');
  if (next === undefined) return unchanged;
  if (next.trim() === '' && existsSync(file)) {
    unlinkSync(file);
    return `${did} (and the file, left empty)`;
  }
  writeFile(file, next);
  return did;
}
