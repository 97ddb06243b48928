/**
 * The one pipe a command writes its stdout and stderr into. A real kernel pipe, made as a FIFO
 * and unlinked at once: node's own `stdio: 'pipe'` is a socket pair, and a socket cannot be
 * opened again by name (`echo x > /dev/stderr` fails with ENXIO), where a pipe can. The command
 * gets the write end as both fd 1 and fd 2 (one open file: the order of its writes is kept by
 * construction); ctxwrap reads the other end.
 *
 * node has no mkfifo(3), and running coreutils' `mkfifo` on the way to every command costs a
 * process start. So each run leaves a spare FIFO (`.fifo-spare`) for the next, made in the
 * background once its own command has started, and a run claims the spare by renaming it to a
 * name of its own (only one run can); it runs `mkfifo` itself only when there is none.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface OutputPipe {
  /** ctxwrap's end (non-blocking). */
  readFd: number;
  /** The command's end, given to it as fd 1 and fd 2; ctxwrap closes its copy once it has spawned. */
  writeFd: number;
}

const SPARE = '.fifo-spare';

/**
 * Makes the pipe in `dir` (a directory only the user can write to). Resolves to undefined when no
 * FIFO can be made (no `mkfifo` program, a file system without FIFOs): the caller falls back.
 */
export async function makeOutputPipe(dir: string): Promise<OutputPipe | undefined> {
  const path = join(dir, `.fifo-${process.pid}-${randomBytes(6).toString('hex')}`);
  let claimed = false;
  try {
    renameSync(join(dir, SPARE), path);
    claimed = true;
  } catch {
    /* no spare: make one */
  }
  if (!claimed && !(await mkfifo(path))) return undefined;
  let readFd = -1;
  try {
    // The reader first (non-blocking: there is no writer yet), then the writer, which finds it.
    readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(readFd).isFIFO()) throw new Error('not a FIFO');
    const writeFd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW);
    return { readFd, writeFd };
  } catch {
    if (readFd >= 0) closeSync(readFd);
    return undefined;
  } finally {
    try {
      unlinkSync(path);
    } catch {
      /* never made */
    }
  }
}

/** Leaves a spare FIFO in `dir` for the next run, in the background (nothing waits for it). */
export function makeSpare(dir: string): void {
  try {
    const child = spawn('mkfifo', ['-m', '600', join(dir, SPARE)], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* the next run makes its own */
  }
}

function mkfifo(path: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    try {
      const child = spawn('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('exit', (code) => resolve(code === 0));
    } catch {
      resolve(false);
    }
  });
}
