/**
 * The Claude Code hook's decisions, as pure functions: whether to run a Bash command through
 * ctxwrap in the agent's own shell (see in-shell.ts), as a view when it ends in `| tail -N` or
 * `| head -N`, and whether to answer `permissionDecision: "allow"`.
 *
 * Claude Code's protocol (hooks reference, "PreToolUse decision control", code.claude.com/docs/en/hooks):
 * the hook answers with `hookSpecificOutput.updatedInput`, which replaces the whole tool input,
 * and may add `permissionDecision` (`allow` skips the prompt, never a deny or ask rule). Claude
 * Code checks its rules against the command the hook returns, so the wrapped text would fall out
 * of an allow rule written for the original: the hook answers `allow` itself exactly when every
 * part of the original is matched by an allow rule the way Claude Code matches it (see
 * allow-rules.ts), and leaves the command alone on any doubt. It never widens a permission.
 */
import { toolName } from '../store/ids.js';
import { allowedByRules } from './allow-rules.js';
import { mightAutoAllow } from './claude-auto-allow.js';
import { findView, type ViewSplit } from './in-shell.js';
import { INTERACTIVE, SERVERS, SHELL_STATE, WRAPPERS } from './leave-alone.js';
import { type BashRules, ruleMightMatch } from './permission-rules.js';
import {
  commandWords,
  type ParsedLine,
  parseShell,
  ShellParseError,
  type SimpleCommand,
} from './shell-words.js';

export { shellQuote } from './quote.js';

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
  /** The user's Bash permission rules; undefined when they are unknown (unreadable, or given by flags). */
  rules: BashRules | undefined;
}

/** How to run a command through ctxwrap: the hook allocates the result and builds the text. */
export interface WrapPlan {
  /** The original command text, run as written. */
  command: string;
  /** What names the result id: the first command's name. */
  name: string;
  view?: ViewSplit;
  /** Answer `permissionDecision: "allow"`: Claude Code would allow the original by the user's rules. */
  allow: boolean;
}

export type Decision = { wrap: WrapPlan } | { leave: string };

/** Session ids Claude Code hands out are UUIDs; anything else is refused before it names a directory. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

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
  // Sandboxed, Claude Code allows what runs inside its sandbox, where the run directory cannot be
  // written: the wrapper would lose the approval and store nothing.
  if (ctx.rules.sandboxed) return { leave: "Claude Code's sandbox is enabled" };
  return decideCommand(command, ctx.rules, String(input.permission_mode ?? 'default'));
}

/**
 * The decision for one command text, given the user's rules (shared by every agent's hook).
 * `mode` is Claude Code's permission mode; undefined for the other agents (their rules are
 * handled by their hooks).
 */
export function decideCommand(command: string, rules: BashRules, mode?: string): Decision {
  const bypass = mode === undefined || mode === 'bypassPermissions';
  let parsed: ParsedLine;
  try {
    parsed = parseShell(command);
  } catch (error) {
    if (error instanceof ShellParseError) return { leave: `cannot parse: ${error.message}` };
    throw error;
  }
  const nested = collectNested(parsed);
  if (nested === undefined) return { leave: 'cannot parse a substitution' };
  const all = [...parsed.commands, ...nested];
  for (const cmd of all) {
    const why = leaveReason(cmd);
    if (why) return { leave: why };
  }
  // A sourced script may set its own EXIT trap, which would replace the wrapper's before an exit.
  const names = all.map((c) => commandWords(c)[0]?.text);
  if (
    names.some((n) => n === 'source' || n === '.') &&
    (names.includes('exit') || /\bset\s+-\w*e|errexit/.test(command))
  )
    return { leave: 'sources a script, then may exit: its EXIT trap would replace the wrapper' };
  const texts = [
    command,
    ...parsed.heredocs,
    all.flatMap((c) => [...c.assignments, ...c.words].map((w) => w.text)).join(' '),
  ];
  for (const kind of ['deny', 'ask'] as const) {
    const rule = rules[kind].find((r) => ruleMightMatch(r, texts));
    if (rule) return { leave: `the ${kind} rule ${rule} may match` };
  }
  let allow = false;
  if (!bypass && rules.allow.length > 0) {
    allow = allowedByRules(command, parsed, rules.allow);
    // An allow rule might match part of it, but not every part is allowed: Claude Code would
    // ask for the original too, but the user would see the wrapped text; leave it as written.
    if (!allow) {
      const rule = rules.allow.find((r) => ruleMightMatch(r, texts));
      if (rule) return { leave: `the allow rule ${rule} may match part of it, not every part` };
    }
  }
  if (!allow && !bypass && mightAutoAllow(all, mode))
    return { leave: 'Claude Code may run it without asking (read-only, or an edit in acceptEdits)' };
  const first = all.map((c) => commandWords(c)).find((w) => w.length > 0);
  const view = findView(command, parsed);
  const name = first ? base(toolName(first.map((w) => w.text)) || first[0]!.text) : 'sh';
  return { wrap: { command, name, allow, ...(view ? { view } : {}) } };
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
  if (SHELL_STATE.has(first.text)) return `${first.text} would not behave as written inside the wrapper`;
  const second = texts[1];
  if (
    (first.text === 'command' || first.text === 'builtin') &&
    second !== undefined &&
    SHELL_STATE.has(second)
  )
    return `${second} would not behave as written inside the wrapper`;
  if (first.text === 'eval' && texts.slice(1).some((w) => /(^|[^\w-])(exec|trap)([^\w-]|$)/.test(w)))
    return 'eval of exec or trap would not behave as written inside the wrapper';
  const editor = opensEditor(texts.map(base));
  if (editor) return `${editor} opens an editor`;
  if (texts.some((w) => /^--watch(All)?(=|$)/.test(w))) return 'runs in watch mode';
  let start = 0;
  while (start < texts.length - 1 && WRAPPERS.has(base(texts[start] as string))) start++;
  const run = texts.slice(start);
  for (const w of texts) if (INTERACTIVE.has(base(w))) return `${base(w)} needs a terminal`;
  if (followsForever(run)) return 'follows its output forever';
  if (SERVERS.some((s) => startsWith(run, s))) return 'starts a dev server';
  return undefined;
}

/** Commands that open an editor or an interactive prompt unless told otherwise (issue 22 #7). */
function opensEditor(words: string[]): string | undefined {
  const at = (name: string) => words.indexOf(name);
  const git = at('git');
  if (git !== -1) {
    const args = words.slice(git + 1);
    const sub = args.find((w) => !w.startsWith('-'));
    if (sub === 'commit' || sub === 'merge' || sub === 'tag') {
      const told = args.some(
        (w) =>
          /^--(message|file|reuse-message|no-edit|fixup)(=|$)/.test(w) ||
          /^-[a-zA-Z]*[mFC]/.test(w) ||
          (sub !== 'commit' && w === '--no-edit'),
      );
      // `git merge` and `git tag` open an editor only with -e / -a without -m.
      const asks =
        sub === 'commit' || args.some((w) => w === '-e' || w === '--edit' || /^-[a-zA-Z]*a$/.test(w));
      if (asks && !told) return `git ${sub} without -m`;
    }
    if (sub === 'rebase' && args.some((w) => w === '-i' || w === '--interactive' || /^-[a-zA-Z]*i/.test(w)))
      return 'git rebase -i';
    if (
      (sub === 'add' || sub === 'checkout' || sub === 'reset' || sub === 'restore' || sub === 'stash') &&
      args.some((w) => w === '-p' || w === '--patch' || w === '-i' || w === '--interactive')
    )
      return `git ${sub} --patch`;
  }
  if (at('crontab') !== -1 && words.includes('-e')) return 'crontab -e';
  if ((at('kubectl') !== -1 || at('oc') !== -1) && words.includes('edit')) return 'kubectl edit';
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
