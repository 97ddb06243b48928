/** A result made ahead of its run: the hook allocates it, the agent's shell writes its output, `finish` ends it. */
import { newId } from './ids.js';
import { type ResultMeta, resultPaths, writeMeta } from './results.js';
import { ensureRunDir, runDirAt } from './run-dir.js';

export interface Allocated {
  id: string;
  /** The file the agent's shell redirects the command's output into. */
  output: string;
}

/** A new result id and the path of its output file (nothing is written yet). */
export function planResult(runDir: string, name: string): Allocated {
  const id = newId(name);
  return { id, output: resultPaths(runDirAt(runDir), id).output };
}

/** Records a planned result as running (making the run directory if needed). Throws on a store error. */
export function allocateResult(opts: {
  runDir: string;
  id: string;
  /** The command as the shell runs it: `[shell, '-c', text]`. */
  command: string[];
  cwd: string;
  /** The process the run belongs to (the agent), to tell a live run from an abandoned one. */
  pid: number;
  /** When the command started, if not now (ms since the epoch). */
  startedMs?: number;
}): Allocated {
  const dir = ensureRunDir(opts.runDir);
  const id = opts.id;
  const meta: ResultMeta = {
    version: 1,
    id,
    command: opts.command,
    source: 'shell',
    cwd: opts.cwd,
    startedAt: new Date(opts.startedMs ?? Date.now()).toISOString(),
    state: 'running',
    pid: opts.pid,
  };
  writeMeta(dir, meta);
  return { id, output: resultPaths(dir, id).output };
}
