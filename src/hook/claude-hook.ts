/**
 * The Claude Code hook's decisions, as pure functions: whether to wrap a Bash command in
 * `ctxwrap -c '...'`, and the exact text of the wrapped command. Claude Code's protocol
 * (hooks reference, "PreToolUse decision control"): the hook answers with
 * `hookSpecificOutput.updatedInput`, which replaces the whole tool input. It never sets
 * `permissionDecision`, so Claude Code's own permission flow still decides whether the
 * command runs.
 */
import { INTERACTIVE, SERVERS, SHELL_STATE, WRAPPERS } from './leave-alone.js';
import { type BashRules, ruleMightMatch } from './permission-rules.js';
import {
  commandWords,
  type ParsedLine,
  parseShell,
  ShellParseError,
  type SimpleCommand,
} from './shell-words.js';

/** What a PreToolUse hook reads on stdin (the fields the hook uses). */
export interface PreToolUseInput {
  session_id?: unknown;
  cwd?: unknown;
  permission_mode?: unknown;
  hook_event_name?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
}

export interface WrapContext {
  /** How to call ctxwrap from the agent's shell: `ctxwrap`, or a quoted absolute path. */
  self: string;
  /** Where this session's results go: `<state>/sessions/<session id>`. */
  sessionDir: (sessionId: string) => string;
  /** The shell Claude Code runs Bash commands in (`bash` or `zsh`). */
  shell: string;
  /** The user's Bash permission rules; undefined when they are unknown (unreadable, or given by flags). */
  rules: BashRules | undefined;
}

export type Decision = { wrap: string } | { leave: string };

/** Session ids Claude Code hands out are UUIDs; anything else is refused before it names a directory. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Quotes a string for any POSIX shell: single quotes, with each `'` written as `'\''`. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** Decides what to do with one PreToolUse input. Pure: the context carries everything else. */
export function decide(input: PreToolUseInput, ctx: WrapContext): Decision {
  if (input.hook_event_name !== undefined && input.hook_event_name !== 'PreToolUse')
    return { leave: 'not a PreToolUse event' };
  if (input.tool_name !== 'Bash') return { leave: 'not the Bash tool' };
  const toolInput = input.tool_input as Record<string, unknown> | undefined;
  const command = toolInput?.command;
  if (typeof command !== 'string' || command.trim() === '') return { leave: 'no command' };
  if (toolInput?.run_in_background === true) return { leave: 'runs in the background' };
  if (input.permission_mode === 'plan' || input.permission_mode === 'dontAsk') {
    return {
      leave: `permission mode ${String(input.permission_mode)} runs only commands allowed as written`,
    };
  }
  if (typeof input.session_id !== 'string' || !SESSION_ID_PATTERN.test(input.session_id))
    return { leave: 'no valid session id' };
  if (ctx.rules === undefined) return { leave: 'the permission rules are unknown' };

  let parsed: ParsedLine;
  try {
    parsed = parseShell(command);
  } catch (error) {
    if (error instanceof ShellParseError) return { leave: `cannot parse: ${error.message}` };
    throw error;
  }
  const { prefix, rest } = splitLeadingCd(command, parsed);
  const body = rest === command ? parsed : parseShell(rest);
  const nested = collectNested(body);
  if (nested === undefined) return { leave: 'cannot parse a substitution' };
  const all = [...body.commands, ...nested];

  for (const cmd of all) {
    const why = leaveReason(cmd);
    if (why) return { leave: why };
  }
  const texts = [
    command,
    ...parsed.heredocs,
    all.flatMap((c) => [...c.assignments, ...c.words].map((w) => w.text)).join(' '),
  ];
  const kinds: (keyof BashRules)[] =
    input.permission_mode === 'bypassPermissions' ? ['deny', 'ask'] : ['deny', 'ask', 'allow'];
  for (const kind of kinds) {
    const rule = ctx.rules[kind].find((r) => ruleMightMatch(r, texts));
    if (rule) return { leave: `the ${kind} rule ${rule} may match` };
  }
  const dir = ctx.sessionDir(input.session_id);
  const wrapped = `CTXWRAP_RUN_DIR=${shellQuote(dir)} ${ctx.self} --shell ${shellQuote(ctx.shell)} -c ${shellQuote(rest)}`;
  return { wrap: `${prefix}${wrapped}` };
}

/** Why a simple command must run unwrapped, or undefined. */
function leaveReason(cmd: SimpleCommand): string | undefined {
  if (cmd.end === '&') return 'runs in the background (&)';
  const words = commandWords(cmd);
  const texts = words.map((w) => w.text);
  for (const w of texts) {
    const name = base(w);
    if (name === 'ctxwrap' || name === 'ctxwrap.js') return 'already runs through ctxwrap';
  }
  const first = words[0];
  if (first === undefined) return undefined;
  if (first.dynamic) return 'its command name is only known at run time';
  if (SHELL_STATE.has(first.text) || /\(\)$/.test(first.text))
    return `${first.text} changes the agent's shell`;
  if (texts.some((w) => /^--watch(All)?(=|$)/.test(w))) return 'runs in watch mode';
  let start = 0;
  while (start < texts.length - 1 && WRAPPERS.has(base(texts[start] as string))) start++;
  const run = texts.slice(start);
  for (const w of texts) if (INTERACTIVE.has(base(w))) return `${base(w)} needs a terminal`;
  if (followsForever(run)) return 'follows its output forever';
  if (SERVERS.some((s) => startsWith(run, s))) return 'starts a dev server';
  return undefined;
}

function followsForever(words: string[]): boolean {
  const name = base(words[0] ?? '');
  const follow = words.some(
    (w) => w === '--follow' || w.startsWith('--follow=') || w === '-F' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(w),
  );
  return follow && (name === 'tail' || name === 'journalctl' || words.includes('logs'));
}

function startsWith(words: string[], pattern: string[]): boolean {
  const [name, ...rest] = pattern;
  if (base(words[0] ?? '') !== name) return false;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '-') return words[i + 1] === undefined || (words[i + 1] as string).startsWith('-');
    if (words[i + 1] !== rest[i]) return false;
  }
  return true;
}

/** Commands inside substitutions, parsed in turn; undefined when one cannot be parsed. */
function collectNested(parsed: ParsedLine, depth = 0): SimpleCommand[] | undefined {
  const out: SimpleCommand[] = [];
  for (const text of parsed.substitutions) {
    if (depth > 8) return undefined;
    try {
      const inner = parseShell(text);
      const deeper = collectNested(inner, depth + 1);
      if (deeper === undefined) return undefined;
      out.push(...inner.commands, ...deeper);
    } catch {
      return undefined;
    }
  }
  return out;
}

/**
 * Keeps leading `cd <dir> &&` steps outside the wrapper, so that the agent's shell still moves
 * to that directory, when the rest is only pipelines joined by `&&` (so nothing runs
 * differently when the `cd` fails). Returns the prefix as written and the rest to wrap.
 */
export function splitLeadingCd(command: string, parsed: ParsedLine): { prefix: string; rest: string } {
  const none = { prefix: '', rest: command };
  const cmds = parsed.commands;
  let n = 0;
  while (n < cmds.length) {
    const c = cmds[n] as SimpleCommand;
    if (c.words[0]?.text !== 'cd' || c.words.length > 2 || c.assignments.length > 0 || c.end !== '&&') break;
    if (c.words.some((w) => w.dynamic && /\$\(|`/.test(w.text))) break;
    n++;
  }
  if (n === 0) return none;
  const tail = cmds.slice(n);
  if (
    tail.length === 0 ||
    tail.some(
      (c, i) =>
        !(
          c.end === '&&' ||
          c.end === '|' ||
          c.end === '|&' ||
          (i === tail.length - 1 && (c.end === '' || c.end === '\n'))
        ),
    )
  )
    return none;
  if (parsed.heredocs.length > 0) return none;
  // Find where the n-th `&&` after a cd ends in the text: count top-level `&&` outside quotes.
  const at = nthTopLevelAndAnd(command, n);
  if (at === -1) return none;
  const prefix = command.slice(0, at + 2);
  const rest = command.slice(at + 2).trimStart();
  return rest === '' ? none : { prefix: `${prefix} `, rest };
}

/** Index of the n-th `&&` (1-based) outside quotes and substitutions, or -1. */
function nthTopLevelAndAnd(text: string, n: number): number {
  let seen = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\\') i += 2;
    else if (c === "'") i = text.indexOf("'", i + 1) + 1 || text.length;
    else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '&' && text[i + 1] === '&') {
      if (++seen === n) return i;
      i += 2;
    } else i++;
  }
  return -1;
}
