/**
 * Pure edits of Claude Code's files for `ctxwrap init claude`: ctxwrap's hooks in a settings
 * object, and ctxwrap's marked block in CLAUDE.md. Every other key, hook and line is kept as
 * it was; adding what is already there changes nothing.
 */
import { CtxwrapError, EXIT_FAILURE } from '../errors.js';

/** One hook handler as settings.json spells it. */
interface Handler {
  type?: unknown;
  command?: unknown;
  [key: string]: unknown;
}

interface Group {
  matcher?: unknown;
  hooks?: unknown;
  [key: string]: unknown;
}

type Settings = Record<string, unknown>;

/** The events ctxwrap hooks, with the matcher of each (none for SessionStart). */
interface HookEvent {
  event: string;
  matcher?: string;
}

/** Claude Code's events: PreToolUse for Bash, SessionStart. */
const CTXWRAP_EVENTS: HookEvent[] = [{ event: 'PreToolUse', matcher: 'Bash' }, { event: 'SessionStart' }];

/** How a settings file of one agent holds ctxwrap's hooks. */
export interface HookLayout {
  events: HookEvent[];
  /** The handler's `timeout`, in the agent's unit (Claude Code and Codex: seconds; Gemini CLI: ms). */
  timeout: number;
}

/** Claude Code gives the hook 10 seconds before it goes on without it. */
export const CLAUDE_LAYOUT: HookLayout = { events: CTXWRAP_EVENTS, timeout: 10 };

/** True for a handler ctxwrap installed: its command runs `ctxwrap hook <agent>` by any path. */
export function isCtxwrapHandler(handler: unknown): boolean {
  const command = (handler as Handler | null)?.command;
  return (
    typeof command === 'string' &&
    /(^|[\s/'"])ctxwrap(\.js)?['"]? hook (claude|codex|gemini)$/.test(command.trim())
  );
}

function hooksOf(settings: Settings, file: string): Record<string, unknown> {
  const hooks = settings.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new CtxwrapError(
      `${file}: "hooks" is not an object; fix it by hand, then run this again`,
      EXIT_FAILURE,
    );
  }
  return hooks as Record<string, unknown>;
}

function groupsOf(hooks: Record<string, unknown>, event: string, file: string): Group[] {
  const groups = hooks[event] ?? [];
  if (!Array.isArray(groups)) {
    throw new CtxwrapError(
      `${file}: "hooks.${event}" is not a list; fix it by hand, then run this again`,
      EXIT_FAILURE,
    );
  }
  return groups as Group[];
}

/** The groups of an event without ctxwrap's handlers (groups left empty by that are dropped). */
function withoutOurs(groups: Group[]): Group[] {
  const out: Group[] = [];
  for (const group of groups) {
    if (!Array.isArray(group?.hooks) || !group.hooks.some(isCtxwrapHandler)) {
      out.push(group);
      continue;
    }
    const rest = group.hooks.filter((h) => !isCtxwrapHandler(h));
    if (rest.length > 0) out.push({ ...group, hooks: rest });
  }
  return out;
}

function ourGroup(command: string, matcher: string | undefined, timeout: number): Group {
  return {
    ...(matcher !== undefined ? { matcher } : {}),
    hooks: [{ type: 'command', command, timeout }],
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Settings with ctxwrap's hooks installed (running `command`), or undefined when they already
 * are, exactly so.
 */
export function withCtxwrapHooks(
  settings: Settings,
  command: string,
  file: string,
  layout: HookLayout = CLAUDE_LAYOUT,
): Settings | undefined {
  const hooks = hooksOf(settings, file);
  let changed = false;
  const next: Record<string, unknown> = { ...hooks };
  for (const { event, matcher } of layout.events) {
    const groups = groupsOf(hooks, event, file);
    const mine = groups.filter((g) => Array.isArray(g?.hooks) && g.hooks.some(isCtxwrapHandler));
    const ours = ourGroup(command, matcher, layout.timeout);
    if (mine.length === 1 && same(mine[0], ours)) continue;
    next[event] = [...withoutOurs(groups), ours];
    changed = true;
  }
  return changed ? { ...settings, hooks: next } : undefined;
}

/** Settings without ctxwrap's hooks, or undefined when there were none. */
export function withoutCtxwrapHooks(
  settings: Settings,
  file: string,
  layout: HookLayout = CLAUDE_LAYOUT,
): Settings | undefined {
  if (settings.hooks === undefined) return undefined;
  const hooks = hooksOf(settings, file);
  let changed = false;
  const next: Record<string, unknown> = { ...hooks };
  for (const { event } of layout.events) {
    const groups = groupsOf(hooks, event, file);
    const rest = withoutOurs(groups);
    if (rest.length === groups.length && same(rest, groups)) continue;
    changed = true;
    if (rest.length > 0) next[event] = rest;
    else delete next[event];
  }
  if (!changed) return undefined;
  const out: Settings = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key !== 'hooks') out[key] = value;
    else if (Object.keys(next).length > 0) out[key] = next;
  }
  return out;
}

/** JSON text with object keys sorted, to compare two settings whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

const START_MARK = '<!-- ctxwrap:start';
export const BLOCK_START = `${START_MARK} (managed by \`ctxwrap init\`; edits inside are replaced) -->`;
export const BLOCK_END = '<!-- ctxwrap:end -->';

function findBlock(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(START_MARK);
  if (start === -1) return undefined;
  const close = text.indexOf(BLOCK_END, start);
  if (close === -1)
    throw new CtxwrapError(
      `the ctxwrap block in CLAUDE.md has no end marker ${BLOCK_END}; fix it by hand`,
      EXIT_FAILURE,
    );
  let end = close + BLOCK_END.length;
  if (text[end] === '\n') end++;
  return { start, end };
}

/** CLAUDE.md text with the block holding `snippet` (in place when there is one), or undefined when unchanged. */
export function withBlock(text: string, snippet: string): string | undefined {
  const block = `${BLOCK_START}\n${snippet.endsWith('\n') ? snippet : `${snippet}\n`}${BLOCK_END}\n`;
  const found = findBlock(text);
  let next: string;
  if (found) next = text.slice(0, found.start) + block + text.slice(found.end);
  else if (text === '') next = block;
  else next = `${text.endsWith('\n') ? text : `${text}\n`}\n${block}`;
  return next === text ? undefined : next;
}

/** CLAUDE.md text without the block (and the blank line added before it), or undefined when there is none. */
export function withoutBlock(text: string): string | undefined {
  const found = findBlock(text);
  if (!found) return undefined;
  const start =
    found.start >= 2 && text.slice(found.start - 2, found.start) === '\n\n' ? found.start - 1 : found.start;
  return text.slice(0, start) + text.slice(found.end);
}
