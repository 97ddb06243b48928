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
}

/** The fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, tty, tpgid, ...]. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The start time of `pid` (field 22 of its stat), or undefined when it is gone or a zombie. */
function startOf(pid: number): string | undefined {
  const fields = statFields(pid);
  if (!fields || fields[0] === 'Z') return undefined;
  return fields[19];
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
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    if (seen.has(pid)) continue;
    const start = startOf(pid);
    if (start === undefined) {
      // No /proc (not Linux): the root itself is still worth signalling.
      if (roots.includes(pid) && !hasProc()) seen.set(pid, { pid, start: '' });
      continue;
    }
    seen.set(pid, { pid, start });
    queue.push(...childrenOf(pid));
  }
  return [...seen.values()];
}

/** True when the process is still the one that was seen (not gone, not a zombie, pid not reused). */
export function isAlive(proc: Proc): boolean {
  if (proc.start === '') {
    try {
      process.kill(proc.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return startOf(proc.pid) === proc.start;
}

/**
 * Sends `signal` once to each process of `procs` that is still alive, then to what they turn out
 * to have started meanwhile (a shell that forked between the look and the signal), until no new
 * process shows up. Returns every process signalled.
 */
export function signalAll(procs: readonly Proc[], signal: NodeJS.Signals): Proc[] {
  const done = new Map<number, Proc>();
  let batch = procs;
  for (let round = 0; round < 8 && batch.length > 0; round++) {
    for (const proc of batch) {
      if (done.has(proc.pid) || !isAlive(proc)) continue;
      done.set(proc.pid, proc);
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
  procMounted ??= statFields('self') !== undefined;
  return procMounted;
}

/**
 * True when ctxwrap is in the foreground process group of its controlling terminal. A Ctrl-C
 * there is delivered by the kernel to that whole group, the command included: forwarding it
 * again would make it arrive twice. Without /proc: whether stdin is a terminal.
 */
export function inTerminalForeground(): boolean {
  const fields = statFields('self');
  if (!fields) return isatty(0);
  const [, , pgrp, , tty, tpgid] = fields;
  return tty !== '0' && tpgid === pgrp;
}
