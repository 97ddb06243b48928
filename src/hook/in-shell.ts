/**
 * The command the hook hands back: the agent's ORIGINAL text, untouched and on its own lines,
 * run by the agent's own shell (its functions, aliases, `cd`, exports all apply), with its
 * combined output going into a FIFO read by `cat >> <result file>` (never into the file itself:
 * `> /dev/stderr` reopens the pipe), and ctxwrap called after it to summarise the file and
 * return the exact exit status. Pure text building.
 *
 *     <setup: checks, mkfifo, reader, exec {fd}><fifo>; trap '<finish>' EXIT>; { <original text>
 *     } >&$fd 2>&$fd
 *     __ctxwrap_status=$?; <close fd; trap back>; <finish> --reader <pid> "$__ctxwrap_status"
 *
 * The trap gives `exit N` and `set -e` inside a summary too. The original starts on the first
 * line, so the shell's own messages name the same line numbers (`bash: line 1: ...`), and ends
 * on a line of its own, so a here-document's delimiter or a comment on its last line stays one.
 * The group `{ }` runs in the agent's shell itself, so `cd` and `export` persist (Claude Code
 * records the directory after the command). The trap points stdout and stderr back at the
 * agent before the summary (zsh runs it with the group's redirections still in place).
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

/**
 * What reads the command's output: `cat` appending to the result file, under a file size limit
 * of `capBlocks` (the cap on a stored output, in the shell's `ulimit -f` blocks). When it cannot
 * write any more (the cap, a full disk, `ulimit -f`), `wc -c` drains the rest of the pipe and
 * counts it into `<file>.rest`, so the command runs on to its end rather than die of SIGPIPE, and
 * _finish can say how much was not stored.
 */
function reader(capBlocks: number | undefined): string {
  const limit = capBlocks !== undefined ? `ulimit -f ${capBlocks}; ` : '';
  return `${limit}cat >>"$__ctxwrap_out" 2>/dev/null || exec wc -c >"$__ctxwrap_out.rest"`;
}

/**
 * Checks (after the result file's) that make the FIFO next to the result file. The text holds no
 * `rm`: Claude Code asks before an `rm` it cannot resolve even in bypassPermissions mode, so
 * _finish removes the FIFO (its name is the result's, new each run).
 */
const MAKE_FIFO = ['command mkfifo -m 600 "$__ctxwrap_fifo"'];

/**
 * Starts the reader on the FIFO and opens the command's end as `$__ctxwrap_fd`. The reader is
 * started from a subshell that exits at once, so it is no job of the agent's shell: `wait` or
 * `jobs` in the command do not see it (a bare `wait` waited for it for ever, in bash for the
 * process substitution this used to be). Its pid comes back through `<file>.pid`, which _finish
 * removes, with the FIFO.
 */
function openFifo(capBlocks: number | undefined): string {
  return [
    `( { ${reader(capBlocks)}; } <"$__ctxwrap_fifo" 2>/dev/null & echo $! >"$__ctxwrap_out.pid" )`,
    'read -r __ctxwrap_pid <"$__ctxwrap_out.pid"',
    'exec {__ctxwrap_fd}>"$__ctxwrap_fifo"',
    '__ctxwrap_fd2=$__ctxwrap_fd',
  ].join('; ');
}

export interface InShellOptions {
  /**
   * The finish command without its status argument: `<node> <ctxwrap.js> _finish --run-dir <dir> <id>`,
   * quoted, naming ctxwrap by absolute paths.
   */
  finish: string;
  /** Files that must exist when the command runs (node and ctxwrap's script), else it runs unwrapped. */
  needs: string[];
  /** The result file. */
  output: string;
  /** The cap on stored bytes in the shell's `ulimit -f` blocks (bash 1024 bytes, zsh 512); none when undefined. */
  capBlocks?: number;
  view?: ViewSplit;
}

/**
 * The text the agent's shell (bash) runs instead of `original`:
 *
 *     <setup>; { <original>
 *     } >&"$__ctxwrap_fd" 2>&"$__ctxwrap_fd2"
 *     __ctxwrap_status=$?; <end>
 *
 * The setup checks that ctxwrap is still there and the result file can be made (mode 0600);
 * if so it opens a FIFO read by `cat >> <file>` (see openFifo) and points the group at it,
 * else the group keeps the agent's stdout and stderr and the original runs unwrapped. The
 * command never writes into the file itself: `> /dev/stderr` reopens a pipe, order is exact.
 * An EXIT trap (for `exit N` inside the group) chains to the trap that was there before and is
 * put back afterwards; a trap the command set itself is kept.
 */
export function inShellText(original: string, opts: InShellOptions): string {
  const finish = opts.view ? `${opts.finish} --view ${shellQuote(opts.view.filter)}` : opts.finish;
  const finishWith = (status: string) => `${finish} --reader "$__ctxwrap_pid" "${status}"`;
  const checks = [
    ...opts.needs.map((f) => `[ -f ${shellQuote(f)} ]`),
    '(umask 077; : >>"$__ctxwrap_out")',
    ...(opts.view ? [] : MAKE_FIFO),
  ];
  const open = opts.view ? '__ctxwrap_pid=0' : openFifo(opts.capBlocks);
  const onExit =
    '__ctxwrap_s=$?; exec 1>&$__ctxwrap_so 2>&$__ctxwrap_se; ' +
    (opts.view ? '' : 'exec {__ctxwrap_fd}>&-; ') +
    `${finishWith('$__ctxwrap_s')}; eval "$__ctxwrap_prevcmd"`;
  const setup = [
    `__ctxwrap_out=${shellQuote(opts.output)}; __ctxwrap_fifo=${shellQuote(`${opts.output}.fifo`)}; __ctxwrap_fd=1; __ctxwrap_fd2=2; __ctxwrap_pid=`,
    // The trap that was set before: `trap -- 'cmd' EXIT`, its command unquoted by eval.
    `__ctxwrap_prev=$(trap -p EXIT); __ctxwrap_prevcmd=; [ -n "$__ctxwrap_prev" ] && eval "__ctxwrap_prevcmd=\${__ctxwrap_prev#trap -- }" && __ctxwrap_prevcmd=\${__ctxwrap_prevcmd% EXIT}`,
    `if { ${checks.join(' && ')}; } 2>/dev/null; then exec {__ctxwrap_so}>&1 {__ctxwrap_se}>&2; ${open}; trap ${shellQuote(onExit)} EXIT; __ctxwrap_mine=$(trap -p EXIT); fi`,
  ].join('; ');
  const body = opts.view
    ? `{ ${opts.view.prefix}\n} ${opts.view.op} if [ -n "$__ctxwrap_pid" ]; then command tee "$__ctxwrap_out"; else command cat; fi | ${opts.view.filter}`
    : `{ ${original}\n} >&"$__ctxwrap_fd" 2>&"$__ctxwrap_fd2"`;
  const end = [
    '__ctxwrap_status=$?',
    'if [ -z "$__ctxwrap_pid" ]; then (exit $__ctxwrap_status); else ' +
      (opts.view ? '' : 'exec {__ctxwrap_fd}>&-; ') +
      // Put back the trap from before, unless the command set one of its own.
      'if [ "$(trap -p EXIT)" = "$__ctxwrap_mine" ]; then if [ -n "$__ctxwrap_prev" ]; then eval "$__ctxwrap_prev"; else trap - EXIT; fi; fi; ' +
      `${finishWith('$__ctxwrap_status')}; fi`,
  ].join('; ');
  return `${setup}; ${body}\n${end}`;
}
/**
 * The text for zsh (no `trap -p`, no `$!` for a process substitution) and for Gemini CLI (which
 * refuses `$(...)`, `<(...)` and `>(...)`). The same guarantee as bash's: the command writes into
 * a pipe, a FIFO made next to the result file (removed by _finish), read by a background `cat`
 * that appends to the file:
 *
 *     <setup: mkfifo; { cat; } <<fifo> >><file> & ; exec {fd}><fifo>>; { <original>
 *     } >&$fd 2>&$fd
 *     __ctxwrap_status=$?; <close fd>; <finish> --reader <cat's pid> "$__ctxwrap_status"
 *
 * zsh runs an EXIT trap with the group's redirections still in place, so the trap (for `exit N`
 * inside) points stdout and stderr back at the agent before the summary, and exits with the
 * command's status. Gemini gets no trap (its own EXIT trap must stay; the hook leaves alone
 * commands that may exit). Where no FIFO can be made, the command runs unwrapped.
 */
export function inShellTextFifo(original: string, opts: InShellOptions, withTrap = true): string {
  const finish = opts.view ? `${opts.finish} --view ${shellQuote(opts.view.filter)}` : opts.finish;
  if (opts.view) {
    // A view is a real pipeline: tee stores what reaches the filter; nothing reopens the file.
    const pick = `__ctxwrap_out=${shellQuote(opts.output)}; { ${opts.needs.map((f) => `[ -f ${shellQuote(f)} ] && `).join('')}(umask 077; : >>"$__ctxwrap_out"); } 2>/dev/null || __ctxwrap_out=/dev/null`;
    return `${pick}; { ${opts.view.prefix}\n} ${opts.view.op} command tee "$__ctxwrap_out" | ${opts.view.filter}\n__ctxwrap_status=$?; ${finish} "$__ctxwrap_status"`;
  }
  const finishWith = (status: string) => `${finish} --reader "$__ctxwrap_pid" "${status}"`;
  const checks = [
    ...opts.needs.map((f) => `[ -f ${shellQuote(f)} ]`),
    '(umask 077; : >>"$__ctxwrap_out")',
    ...MAKE_FIFO,
  ];
  const onExit =
    '__ctxwrap_s=$?; exec 1>&$__ctxwrap_so 2>&$__ctxwrap_se {__ctxwrap_fd}>&-; ' +
    `${finishWith('$__ctxwrap_s')}; exit $__ctxwrap_s`;
  const open = [
    openFifo(opts.capBlocks),
    ...(withTrap ? ['exec {__ctxwrap_so}>&1 {__ctxwrap_se}>&2', `trap ${shellQuote(onExit)} EXIT`] : []),
  ].join('; ');
  const setup = [
    `__ctxwrap_out=${shellQuote(opts.output)}; __ctxwrap_fifo=${shellQuote(`${opts.output}.fifo`)}; __ctxwrap_fd=1; __ctxwrap_fd2=2; __ctxwrap_pid=`,
    `if { ${checks.join(' && ')}; } 2>/dev/null; then ${open}; fi`,
  ].join('; ');
  const end = [
    '__ctxwrap_status=$?',
    'if [ -z "$__ctxwrap_pid" ]; then (exit $__ctxwrap_status); else exec {__ctxwrap_fd}>&-; ' +
      (withTrap ? 'trap - EXIT; ' : '') +
      `${finishWith('$__ctxwrap_status')}; fi`,
  ].join('; ');
  return `${setup}; { ${original}\n} >&$__ctxwrap_fd 2>&$__ctxwrap_fd2\n${end}`;
}
