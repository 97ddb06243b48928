/**
 * The user's Claude Code permission rules for the Bash tool, read from every settings file
 * Claude Code reads, so that the hook never wraps a command one of them could match: Claude Code
 * checks its rules against the command the hook returns, and `ctxwrap -c '...'` would otherwise
 * slip past a `deny` or `ask` rule written for the command inside.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface BashRules {
  allow: string[];
  ask: string[];
  deny: string[];
}

/** The settings files Claude Code reads, most specific last; missing files are skipped. */
export function settingsFiles(env: NodeJS.ProcessEnv, cwd: string | undefined): string[] {
  const config = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
  const projects = [...new Set([env.CLAUDE_PROJECT_DIR, cwd].filter((d): d is string => !!d))];
  return [
    '/etc/claude-code/managed-settings.json',
    '/Library/Application Support/ClaudeCode/managed-settings.json',
    join(config, 'settings.json'),
    join(config, 'settings.local.json'),
    ...projects.flatMap((p) => [
      join(p, '.claude', 'settings.json'),
      join(p, '.claude', 'settings.local.json'),
    ]),
  ];
}

/**
 * Collects the Bash rules of all settings files. Returns undefined when a file exists but
 * cannot be read or parsed: the rules are then unknown and the hook changes nothing.
 */
export function loadBashRules(
  files: string[],
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): BashRules | undefined {
  const rules: BashRules = { allow: [], ask: [], deny: [] };
  for (const file of files) {
    let text: string;
    try {
      text = read(file);
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code === 'ENOENT' ||
        (error as NodeJS.ErrnoException).code === 'ENOTDIR'
      )
        continue;
      return undefined;
    }
    let settings: unknown;
    try {
      settings = JSON.parse(text);
    } catch {
      return undefined;
    }
    const permissions = (settings as { permissions?: Record<string, unknown> } | null)?.permissions;
    if (permissions === undefined) continue;
    if (typeof permissions !== 'object' || permissions === null) return undefined;
    for (const kind of ['allow', 'ask', 'deny'] as const) {
      const list = permissions[kind];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return undefined;
      for (const rule of list)
        if (typeof rule === 'string' && isBashRule(rule)) rules[kind].push(rule.trim());
    }
  }
  return rules;
}

function isBashRule(rule: string): boolean {
  return /^\s*Bash\s*(\(|$)/.test(rule);
}

/**
 * True when a Bash permission rule could match a command whose texts (as written, and with
 * quotes removed) are given. It errs towards true: every literal piece of the rule's pattern
 * must appear somewhere in the command for Claude Code's matcher to match, so when one is
 * missing the rule cannot match; a rule for the whole tool always can.
 */
export function ruleMightMatch(rule: string, texts: string[]): boolean {
  const m = /^\s*Bash\s*(?:\(([\s\S]*)\))?\s*$/.exec(rule);
  if (!m) return true;
  const pattern = m[1];
  if (pattern === undefined) return true;
  const pieces = pattern
    .split(/:\*|\*/)
    .flatMap((part) => part.split(/\s+/))
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '');
  if (pieces.length === 0) return true;
  const haystack = texts.map((t) => t.toLowerCase());
  return pieces.every((piece) => haystack.some((t) => t.includes(piece)));
}

/** Claude Code flags that bring permission rules the settings files do not show. */
const RULE_FLAGS = ['--disallowedTools', '--disallowed-tools', '--settings'];

/**
 * True when a process above the hook (Claude Code, up to a few levels up) was started with
 * flags that add permission rules no settings file shows: the rules are then unknown. Reads
 * `/proc`; where there is none, it cannot tell and says false.
 */
export function ancestorsAddRules(
  pid: number,
  proc = '/proc',
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): boolean {
  for (let depth = 0; depth < 6 && pid > 1; depth++) {
    let args: string[];
    let stat: string;
    try {
      args = read(join(proc, String(pid), 'cmdline')).split('\0');
      stat = read(join(proc, String(pid), 'stat'));
    } catch {
      return false;
    }
    if (args.some((a) => RULE_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)))) return true;
    // The parent pid is the second field after the command name, which is in parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) return false;
    pid = ppid;
  }
  return false;
}
