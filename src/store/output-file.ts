/**
 * The stored output of one run. Usually the command writes it itself (ResultFile: its stdout and
 * stderr are one descriptor open on the file); when that cannot be done safely, ctxwrap writes
 * what comes through its pipes (OutputFile): a failed write (disk full, quota, the file system
 * gone read-only) stops the storing, never the run: the bytes that made it are counted and the
 * reason kept for one line at the end.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statfsSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { reason } from './run-dir.js';

/**
 * The result file the command writes itself: `writeFd` (write-only, O_APPEND, for the command's
 * stdout and stderr: the kernel keeps the order of its writes) and `readFd` (ctxwrap's own, to
 * follow it). Close `writeFd` once the command has it.
 */
export class ResultFile {
  writeFd: number;
  readFd: number;

  /** Creates the file (0600); it must not exist, so that nothing planted there is written through. */
  constructor(public path: string) {
    const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_RDONLY } = constants;
    this.writeFd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, 0o600);
    try {
      this.readFd = openSync(path, O_RDONLY | O_NOFOLLOW);
    } catch (error) {
      closeSync(this.writeFd);
      throw error;
    }
  }

  /** Closes ctxwrap's copy of the command's descriptor (the command and what it starts keep theirs). */
  closeWriter(): void {
    if (this.writeFd < 0) return;
    closeSync(this.writeFd);
    this.writeFd = -1;
  }

  /** True when the file has been unlinked since it was opened (its run directory removed). */
  isRemoved(): boolean {
    return isUnlinked(this.readFd);
  }

  /** The file's size now. */
  size(): number {
    return fstatSync(this.readFd).size;
  }

  /** Copies what the file holds into a new file at `path` (the old one was removed with its directory). */
  copyTo(path: string): number {
    const fd = openSync(path, 'wx', 0o600);
    try {
      return copyFd(this.readFd, fd, this.size());
    } finally {
      closeSync(fd);
    }
  }

  close(): void {
    this.closeWriter();
    try {
      closeSync(this.readFd);
    } catch {
      /* nothing left to do */
    }
  }
}

/** Copies the first `length` bytes of `from` to `to`; returns the number copied. */
function copyFd(from: number, to: number, length: number): number {
  const buf = Buffer.allocUnsafe(1 << 20);
  let pos = 0;
  while (pos < length) {
    const n = readSync(from, buf, 0, Math.min(buf.length, length - pos), pos);
    if (n === 0) break;
    for (let off = 0; off < n; ) off += writeSync(to, buf, off, n - off);
    pos += n;
  }
  return pos;
}

function isUnlinked(fd: number): boolean {
  try {
    return fstatSync(fd).nlink === 0;
  } catch {
    return false;
  }
}

/** Below this much free space at the start, ctxwrap keeps the command's output in its pipes. */
const LOW_SPACE_BYTES = 1 << 20;

/**
 * Why the command should not write the result file itself, if it should not: a file size limit
 * (`ulimit -f`: the command would be killed by SIGXFSZ where it runs fine without ctxwrap) or
 * a nearly full disk (its own writes would fail). ctxwrap then relays its pipes and stores what
 * fits, and the command runs as it would without ctxwrap.
 */
export function whyNotDirect(results: string): string | undefined {
  if (fileSizeLimited()) return 'a file size limit is set (ulimit -f)';
  const free = freeBytes(results);
  if (free !== undefined && free < LOW_SPACE_BYTES) return `only ${free} bytes free`;
  return undefined;
}

/**
 * Says why the result file in `results` may have been cut short: the disk (or the quota) is
 * full now, so the command's last writes failed. Checked after the command has ended: free
 * space as statfs counts it, then, when that is low, a real write of one block.
 */
export function storageFull(results: string): string | undefined {
  const free = freeBytes(results);
  if (free !== undefined && free >= LOW_SPACE_BYTES) return undefined;
  const probe = join(results, `.probe-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(4096), { flag: 'wx', mode: 0o600 });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return reason(error);
    return undefined;
  } finally {
    try {
      unlinkSync(probe);
    } catch {
      /* never made */
    }
  }
}

/** Free bytes this user may write where `path` is (root may use the reserved blocks too). */
function freeBytes(path: string): number | undefined {
  try {
    const fs = statfsSync(path);
    return (process.getuid?.() === 0 ? fs.bfree : fs.bavail) * fs.bsize;
  } catch {
    return undefined;
  }
}

/** True when RLIMIT_FSIZE is set (Linux: /proc/self/limits; elsewhere assumed unlimited). */
function fileSizeLimited(): boolean {
  try {
    const line = /^Max file size\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line !== null && line[1] !== 'unlimited';
  } catch {
    return false;
  }
}

export class OutputFile {
  /** Bytes written to the file. */
  stored = 0;
  /** Why storing stopped, if it did. */
  error: string | undefined;
  private fd: number;
  private closed = false;

  /** Creates the file (0600); it must not exist, so that nothing planted there is written through. */
  constructor(public path: string) {
    this.fd = openSync(path, 'wx+', 0o600);
  }

  write(chunk: Buffer): void {
    if (this.error !== undefined) return;
    try {
      // writeSync may write less than asked (the last blocks before a full disk).
      for (let off = 0; off < chunk.length; ) {
        const n = writeSync(this.fd, chunk, off, chunk.length - off);
        off += n;
        this.stored += n;
      }
    } catch (error) {
      this.error = reason(error);
    }
  }

  /** True when the file has been unlinked since it was opened (its run directory removed). */
  isRemoved(): boolean {
    return isUnlinked(this.fd);
  }

  /**
   * Copies everything stored so far into a new file at `path` and writes there from now on:
   * what was written to a file whose directory was removed is not lost.
   */
  moveTo(path: string): void {
    const fd = openSync(path, 'wx+', 0o600);
    try {
      copyFd(this.fd, fd, this.stored);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    closeSync(this.fd);
    this.fd = fd;
    this.path = path;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      /* nothing left to do */
    }
  }
}
