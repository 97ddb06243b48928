/**
 * Takes over a command's output pipe that a background process still holds once the command has
 * exited (a daemon, `server &`): a detached `dd` that copies up to `<room>` bytes as they come
 * (one write per read: `head -c` would hold them in a stdio buffer), then `cat > /dev/null`, with
 * the pipe as stdin and the result file, opened for appending, as stdout (where `dd` lacks
 * `iflag=count_bytes`, not GNU, a plain `cat`, uncapped). ctxwrap can end at once; the
 * background process is neither blocked nor given EPIPE, and what it writes later lands in the
 * result file (up to the cap on stored bytes; the rest is read and dropped). The drainer ends
 * when the last holder of the pipe closes it.
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';

const DRAIN = [
  'if dd if=/dev/null of=/dev/null iflag=count_bytes count=0 status=none 2>/dev/null; then',
  '  dd bs=64k iflag=count_bytes count="$1" status=none 2>/dev/null; exec cat >/dev/null',
  'else exec cat; fi',
].join('\n');

/**
 * Starts the drainer of `readFd` into the file at `path`, which takes at most `room` more bytes.
 * Returns why it could not start, if it could not (the pipe is then closed with ctxwrap, and a
 * background writer gets EPIPE).
 */
export function startDrainer(readFd: number, path: string, room: number): string | undefined {
  let fileFd: number | undefined;
  try {
    fileFd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        DRAIN,
        'ctxwrap-drain',
        String(Number.isFinite(room) ? Math.max(0, Math.floor(room)) : Number.MAX_SAFE_INTEGER),
      ],
      // Its own session: a Ctrl-C at the terminal after ctxwrap has ended must not stop it.
      { stdio: [readFd, fileFd, 'ignore'], detached: true },
    );
    child.on('error', () => {});
    child.unref();
    return child.pid === undefined ? 'the drainer could not start' : undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    if (fileFd !== undefined) closeSync(fileFd);
  }
}
