/**
 * The command the hook hands back: the agent's ORIGINAL text, untouched and on its own lines,
 * run by the agent's own shell (its functions, aliases, `cd`, exports all apply), with its
 * combined output redirected into the result file the hook allocated, and ctxwrap called
 * after it to summarise the file and return the exact exit status. Pure text building.
 *
 *     __ctxwrap_out=<file>; <falls back to /dev/stdout if it cannot be written>; trap '<finish> "$?"' EXIT; { <original text>
 *     } >"$__ctxwrap_out" 2>&1
 *     __ctxwrap_status=$?; trap - EXIT; <finish> "$__ctxwrap_status"
 *
 * The trap gives `exit N` and `set -e` inside a summary too. The original starts on the first
 * line, so the shell's own messages name the same line numbers (`bash: line 1: ...`), and ends
 * on a line of its own, so a here-document's delimiter or a comment on its last line stays one.
 * The group `{ }` runs in the agent's shell itself, so `cd` and `export` persist (Claude Code
 * records the directory after the command). Bash restores the group's redirections before an
 * EXIT trap runs, so the summary printed by the trap reaches the agent, not the file.
 *
 * A view (`cmd | tail -20`, `cmd 2>&1 | head -5`, `cmd |& tail`): the pipeline stays a real
 * pipeline, with `tee` storing everything that reaches the filter, so the agent sees exactly
 * what it asked for, the exit status and SIGPIPE behave as before, and ctxwrap adds one line
 * with the id.
 */
import { shellQuote } from './quote.js';
import { commandWords, type ParsedLine } from './shell-words.js';

/** A trailing `| tail -N` / `| head -N`: the pipeline before it, the pipe, and the filter as written. */
export interface ViewSplit {
  prefix: string;
  op: '|' | '|&';
  filter: string;
}

const FILTER = /(\|&?)[ \t]*((?:tail|head)(?:[ \t]+(?:-n[ \t]*\d+|-\d+|--lines=\d+))?)[ \t\n]*$/;
const COUNT = /^(?:-n|-\d+|-n\d+|\d+|--lines=\d+)$/;

/**
 * The view in a command, when the whole command is one pipeline (no `;`, `&&`, `||`, no
 * here-document) whose last stage is `tail` or `head` with at most a line count.
 */
export function findView(command: string, parsed: ParsedLine): ViewSplit | undefined {
  const cmds = parsed.commands;
  if (cmds.length < 2 || parsed.heredocs.length > 0) return undefined;
  const last = cmds[cmds.length - 1];
  if (last === undefined || (last.end !== '' && last.end !== '\n')) return undefined;
  // Outside parentheses and braces, the stages may only be joined by pipes.
  const ops = [...parsed.operators];
  while (ops.length > 0 && (ops.at(-1)?.op === '' || ops.at(-1)?.op === '\n')) ops.pop();
  for (const { op, depth } of ops) {
    if (depth < 0) return undefined;
    if (depth === 0 && op !== '|' && op !== '|&' && op !== '(' && op !== ')') return undefined;
  }
  const words = commandWords(last);
  if (words.length !== last.words.length || last.assignments.length > 0) return undefined;
  const [name, ...args] = words.map((w) => w.raw);
  if ((name !== 'tail' && name !== 'head') || !args.every((a) => COUNT.test(a))) return undefined;
  const m = FILTER.exec(command);
  if (!m) return undefined;
  const prefix = command.slice(0, m.index);
  if (prefix.trim() === '') return undefined;
  return { prefix, op: m[1] as '|' | '|&', filter: m[2] as string };
}

export interface InShellOptions {
  /** The finish command without its status argument: `<ctxwrap> finish --run-dir <dir> <id>`, quoted. */
  finish: string;
  /** The result file. */
  output: string;
  view?: ViewSplit;
}

/** The text the agent's shell runs instead of `original`. */
export function inShellText(original: string, opts: InShellOptions): string {
  const finish = opts.view ? `${opts.finish} --view ${shellQuote(opts.view.filter)}` : opts.finish;
  // Fail open: where the file cannot be written (a sandbox, a full disk), the output goes to the
  // agent as it would have, rather than the command not running at all.
  const pick = `__ctxwrap_out=${shellQuote(opts.output)}; { : >>"$__ctxwrap_out"; } 2>/dev/null || __ctxwrap_out=${opts.view ? '/dev/null' : '/dev/stdout'}`;
  const body = opts.view
    ? `{ ${opts.view.prefix}\n} ${opts.view.op} command tee "$__ctxwrap_out" | ${opts.view.filter}`
    : `{ ${original}\n} >"$__ctxwrap_out" 2>&1`;
  return [
    `${pick}; trap ${shellQuote(`${finish} "$?"`)} EXIT; ${body}`,
    `__ctxwrap_status=$?; trap - EXIT; ${finish} "$__ctxwrap_status"`,
  ].join('\n');
}
