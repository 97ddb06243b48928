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
  /** A settings file enables Claude Code's sandbox (`sandbox.enabled`). */
  sandboxed?: boolean;
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
    if ((settings as { sandbox?: { enabled?: unknown } } | null)?.sandbox?.enabled === true)
      rules.sandboxed = true;
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
  return ancestorArgv(pid, proc, read).some((args) =>
    args.some((a) => RULE_FLAGS.some((f) => a === f || a.startsWith(`${f}=`))),
  );
}

/** The command lines of the hook's ancestors, up to a few levels (empty where there is no /proc). */
export function ancestorArgv(
  pid: number,
  proc = '/proc',
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): string[][] {
  const out: string[][] = [];
  for (let depth = 0; depth < 6 && pid > 1; depth++) {
    let stat: string;
    try {
      out.push(read(join(proc, String(pid), 'cmdline')).split('\0'));
      stat = read(join(proc, String(pid), 'stat'));
    } catch {
      return out;
    }
    // The parent pid is the second field after the command name, which is in parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) return out;
    pid = ppid;
  }
  return out;
}

const ALLOW_FLAGS = ['--allowedTools', '--allowed-tools'];

/**
 * The Bash allow rules given to Claude Code on its command line (`--allowedTools 'Bash(npm
 * test:*)' Read`, or `--allowedTools=a,b`): the words after the flag up to the next option,
 * each split at commas and spaces outside parentheses.
 */
export function ancestorAllowRules(
  pid: number,
  proc = '/proc',
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): string[] {
  const rules: string[] = [];
  for (const args of ancestorArgv(pid, proc, read)) {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      const eq = ALLOW_FLAGS.find((f) => arg.startsWith(`${f}=`));
      const values: string[] = [];
      if (eq) values.push(arg.slice(eq.length + 1));
      else if (ALLOW_FLAGS.includes(arg))
        for (let j = i + 1; j < args.length && !(args[j] as string).startsWith('-'); j++)
          values.push(args[j] as string);
      for (const value of values) rules.push(...splitRules(value).filter(isBashRule));
    }
  }
  return rules;
}

function splitRules(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || ch === ' ')) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
