/**
 * Opening files inside the run directory without trusting what is there: a symbolic link is never
 * followed (O_NOFOLLOW), a FIFO or device never blocks the open (O_NONBLOCK) and is refused, so
 * that a file planted in place of a result cannot make ctxwrap read, print or append to anything
 * outside the run directory.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Thrown when the path opened is a FIFO, a device or a directory rather than a regular file. */
class NotRegularFile extends Error {
  readonly code = 'ENOTREG';
  constructor(readonly path: string) {
    super(`${path} is not a regular file`);
  }
}

/** Opens `path` and checks that it is a regular file; its size when opened. */
function checkedOpenSized(path: string, flags: number, mode?: number): { fd: number; size: number } {
  const fd = openSync(path, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFile(path);
    return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

const checkedOpen = (path: string, flags: number, mode?: number) => checkedOpenSized(path, flags, mode).fd;

/** Opens a regular file for reading; a link (ELOOP), a FIFO or a device is refused. */
export function openFileForRead(path: string): number {
  return checkedOpen(path, O_RDONLY);
}

/** Reads a whole regular file as UTF-8 without following a link. */
export function readFileNoFollow(path: string): string {
  return readBytesNoFollow(path).toString('utf8');
}

/** Bytes readSmallNoFollow takes in one read (a result's metadata is well under 4 KiB). */
const SMALL = 64 * 1024;
let small: Buffer | undefined;

/**
 * readFileNoFollow for many small files (a search reads every result's metadata): one read of at
 * most 64 KiB and no stat (the stat and its Stats object were a third of the CPU of reading 500);
 * a file that fills the read is read again whole by readFileNoFollow. A link is never followed;
 * what is not a regular file cannot block or be read without bound: a directory throws, a FIFO
 * or a device (opened non-blocking) gives at most 64 KiB of what it has at once, or throws.
 */
export function readSmallNoFollow(path: string): string {
  small ??= Buffer.allocUnsafe(SMALL);
  const fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  let got: number;
  try {
    got = readSync(fd, small, 0, SMALL, 0);
  } finally {
    closeSync(fd);
  }
  return got < SMALL ? small.toString('utf8', 0, got) : readFileNoFollow(path);
}

/** Reads a whole regular file without following a link. */
function readBytesNoFollow(path: string): Buffer {
  const { fd, size } = checkedOpenSized(path, O_RDONLY);
  try {
    // One read for a file that is not growing (a short read of a regular file is its end): a
    // search reads every result's metadata, and readFileSync took a second fstat and read each.
    let bytes = Buffer.allocUnsafe(size + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, bytes, got, bytes.length - got, null);
      got += n;
      if (got < bytes.length) break;
      bytes = Buffer.concat([bytes, Buffer.allocUnsafe(bytes.length)]);
    }
    return bytes.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Opens (creating it 0600 if needed) a regular file to append to, without following a link. */
export function openFileForAppend(path: string): number {
  return checkedOpen(path, O_WRONLY | O_APPEND | O_CREAT, 0o600);
}

/** Opens an existing regular file to overwrite, without following a link or creating it. */
export function openFileForWrite(path: string): number {
  return checkedOpen(path, O_WRONLY);
}

/** True for the errors the functions above give for something planted in place of a file. */
export function isPlanted(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ELOOP' || code === 'ENOTREG' || code === 'EMLINK';
}
