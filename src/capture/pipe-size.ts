/**
 * Makes the command's output pipe hold more than its first 64 KiB once the output is big. A pipe
 * of 64 KiB makes a fast writer and ctxwrap take turns about 1,600 times per 100 MB, and the
 * writer waits whenever ctxwrap is busy; a pipe of 256 KiB lets it write ahead while ctxwrap
 * scans, and ctxwrap read more at a time. Not more: what is in the pipe when the command exits
 * is still to be summarised then (1 MiB, Linux's most for a user, made the wait after a 33 MB/s
 * writer's exit longer: bench/cases/15-writer-exit.mjs). Node cannot call fcntl(2), so a
 * short-lived `perl` does (F_SETPIPE_SZ on its stdin, ctxwrap's end: the size is the pipe's,
 * whoever holds it). It reads nothing, runs beside ctxwrap in the background, and is started once
 * per run, only when the output has passed `AFTER_BYTES`: small outputs pay nothing. Where it
 * cannot run (no perl, not Linux, the fcntl refused) the pipe stays as it was.
 */
import { spawn } from 'node:child_process';

/** Output past this size gets the bigger pipe. */
export const AFTER_BYTES = 2 << 20;
/** What the pipe is asked to hold. */
export const PIPE_BYTES = 256 << 10;
/** F_SETPIPE_SZ (Linux, include/uapi/linux/fcntl.h: F_LINUX_SPECIFIC_BASE + 7). */
const F_SETPIPE_SZ = 1031;

/**
 * Asks for a pipe of PIPE_BYTES for the pipe `fd` is an end of; calls `done` (if given) once the
 * helper has ended or could not start. Never throws.
 */
export function enlargePipe(fd: number, done?: () => void): void {
  if (process.platform !== 'linux') {
    done?.();
    return;
  }
  let called = false;
  const end = () => {
    if (called) return;
    called = true;
    done?.();
  };
  try {
    // Its own small environment: nothing of the user's (PERL5OPT, say) changes what it runs.
    const child = spawn('perl', ['-e', `fcntl(STDIN, ${F_SETPIPE_SZ}, ${PIPE_BYTES})`], {
      stdio: [fd, 'ignore', 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    child.on('error', end);
    child.on('exit', end);
    child.unref();
  } catch {
    end();
  }
}
