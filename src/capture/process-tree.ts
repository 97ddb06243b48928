/**
 * The command's processes, found through /proc (Linux). The command shares ctxwrap's process
 * group, so that a kill of that group reaches it; ctxwrap therefore cannot signal "the group" to
 * reach what the command started (that would hit ctxwrap and whoever else is in it), and signals
 * the command's process tree instead: the command and its descendants, as they are when the
 * signal comes. Elsewhere than Linux the tree is the command alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isatty } from 'node:tty';

/** A process, known by its pid and its start time (so that a reused pid is never signalled). */
export interface Proc {
  pid: number;
  start: string;
  /** Its program's name (comm) when it was seen: an exec changes it. */
  name: string;
  /** The name of the parent it was found under (undefined for a root). */
  parentName?: string;
}

/** /proc/<pid>/stat: the command name, and the fields after it: [state, ppid, pgrp, session, tty, tpgid, ...]. */
function readStat(pid: number | 'self'): { name: string; fields: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { name: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/** `pid` as it is now (start time: field 22 of its stat), or undefined when it is gone or a zombie. */
function readProc(pid: number): Proc | undefined {
  const stat = readStat(pid);
  const start = stat?.fields[19];
  if (!stat || stat.fields[0] === 'Z' || start === undefined) return undefined;
  return { pid, start, name: stat.name };
}

/** The process now if it is still the one that was seen (not gone, not a zombie, pid not reused). */
function current(proc: Proc): Proc | undefined {
  if (proc.start === '') {
    try {
      process.kill(proc.pid, 0);
      return proc;
    } catch {
      return undefined;
    }
  }
  const now = readProc(proc.pid);
  if (now?.start !== proc.start) return undefined;
  if (proc.parentName !== undefined) now.parentName = proc.parentName;
  return now;
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
        if (child !== '' && child !== '\n') found.push(Number(child));
    } catch {
      /* the task ended */
    }
  }
  return found;
}

/** `roots` and all their live descendants (the roots alone where /proc is not there). */
export function processTree(roots: readonly number[]): Proc[] {
  const seen = new Map<number, Proc>();
  const queue: { pid: number; parentName?: string }[] = roots.map((pid) => ({ pid }));
  while (queue.length > 0) {
    const { pid, parentName } = queue.shift() as (typeof queue)[number];
    if (seen.has(pid)) continue;
    const proc = readProc(pid);
    if (proc === undefined) {
      // No /proc (not Linux): the root itself is still worth signalling.
      if (roots.includes(pid) && !hasProc()) seen.set(pid, { pid, start: '', name: '' });
      continue;
    }
    if (parentName !== undefined) proc.parentName = parentName;
    seen.set(pid, proc);
    for (const child of childrenOf(pid)) queue.push({ pid: child, parentName: proc.name });
  }
  return [...seen.values()];
}

/** True when the process is still the one that was seen (not gone, not a zombie, pid not reused). */
export function isAlive(proc: Proc): boolean {
  return current(proc) !== undefined;
}

/**
 * True when `proc`, signalled as `was`, has since run another program, and was a forked copy
 * of its parent (same name) when signalled: a shell's child in the instant between fork and exec.
 * The signal then ran the shell's handler in the copy, and the program it went on to run never
 * saw it. A process that took a signal and then chose to run another program is not one.
 */
export function missedSignal(was: Proc, proc: Proc): boolean {
  return (
    was.pid === proc.pid && was.start === proc.start && was.name !== proc.name && was.name === was.parentName
  );
}

/**
 * Sends `signal` once to each process of `procs` that is still alive, then to what they turn out
 * to have started meanwhile (a shell that forked between the look and the signal), until no new
 * process shows up. Returns every process signalled, as it was when signalled.
 *
 * With `chase: false` only `procs` get it, as a terminal's Ctrl-\ reaches one group at one
 * instant: for a signal a program handles and lives on, what its handler starts must not get it.
 */
export function signalAll(procs: readonly Proc[], signal: NodeJS.Signals, chase = true): Proc[] {
  const done = new Map<number, Proc>();
  let batch = procs;
  for (let round = 0; round < (chase ? 8 : 1) && batch.length > 0; round++) {
    for (const proc of batch) {
      if (done.has(proc.pid)) continue;
      // Looked at again just before the signal, so that the name kept is the one it reached.
      const now = current(proc);
      if (!now) continue;
      done.set(proc.pid, now);
      try {
        process.kill(proc.pid, signal);
      } catch {
        /* gone in between */
      }
    }
    batch = processTree([...done.keys()]).filter((p) => !done.has(p.pid));
  }
  return [...done.values()];
}

let procMounted: boolean | undefined;
function hasProc(): boolean {
  procMounted ??= readStat('self') !== undefined;
  return procMounted;
}

/**
 * True when ctxwrap is in the foreground process group of its controlling terminal. A Ctrl-C
 * there is delivered by the kernel to that whole group, the command included: forwarding it
 * again would make it arrive twice. Without /proc: whether stdin is a terminal.
 */
export function inTerminalForeground(): boolean {
  const stat = readStat('self');
  if (!stat) return isatty(0);
  const [, , pgrp, , tty, tpgid] = stat.fields;
  return tty !== '0' && tpgid === pgrp;
}
