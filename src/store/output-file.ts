/**
 * The stored output of one run: ctxwrap appends what it reads from the command's pipe. Storing
 * stops, never the run, past a cap on stored bytes, when the disk would have less than a floor
 * of free space left, or when a write fails (disk full, quota, `ulimit -f`, the file system gone
 * read-only): the bytes that made it are counted and the reason kept for one line at the end.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readSync,
  statfsSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { formatBytes } from '../format.js';
import { reason } from './run-dir.js';

/** What one result may take: at most `maxBytes`, and never leave less than `minFreeBytes` free. */
export interface StoreLimits {
  maxBytes: number;
  minFreeBytes: number;
}

/** Free space is looked at again after at most this many bytes (and at the start). */
const FREE_CHECK_MAX = 64 << 20;
const FREE_CHECK_MIN = 64 << 10;

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

/**
 * Says why the result file in `results` may have been cut short: the disk (or the quota) is
 * full now, so the command's last writes failed. Checked after the command has ended: free
 * space as statfs counts it, then, when that is low, a real write of one block.
 */
export function storageFull(results: string): string | undefined {
  const free = freeBytes(results);
  if (free !== undefined && free >= 1 << 20) return undefined;
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

export class OutputFile {
  /** Bytes written to the file. */
  stored = 0;
  /** Why storing stopped, if it did. */
  error: string | undefined;
  private fd: number;
  private closed = false;
  /** `stored` at which free space is looked at next. */
  private nextFreeCheck = 0;

  /** Creates the file (0600); it must not exist, so that nothing planted there is written through. */
  constructor(
    public path: string,
    private readonly limits: StoreLimits = { maxBytes: Number.POSITIVE_INFINITY, minFreeBytes: 0 },
  ) {
    this.fd = openSync(path, 'wx+', 0o600);
  }

  /** Appends `chunk`, or the part of it the limits allow; stops storing at the first failure. */
  write(chunk: Buffer): void {
    if (this.error !== undefined) return;
    let length = chunk.length;
    const room = this.limits.maxBytes - this.stored;
    if (length > room) length = Math.max(0, room);
    if (this.stored + length >= this.nextFreeCheck && this.limits.minFreeBytes > 0)
      length = this.checkFree(length);
    try {
      // writeSync may write less than asked (the last blocks before a full disk).
      for (let off = 0; off < length; ) {
        const n = writeSync(this.fd, chunk, off, length - off);
        off += n;
        this.stored += n;
      }
    } catch (error) {
      this.error = reason(error);
      return;
    }
    if (length < chunk.length && this.error === undefined)
      this.error = `the cap of ${formatBytes(this.limits.maxBytes)} on a stored output was reached (--max-output, CTXWRAP_MAX_OUTPUT)`;
  }

  /** How much of `length` may be written before free space falls under the floor (sets `error` when less). */
  private checkFree(length: number): number {
    const free = freeBytes(dirname(this.path));
    if (free === undefined) {
      this.nextFreeCheck = this.stored + FREE_CHECK_MAX;
      return length;
    }
    const spare = free - this.limits.minFreeBytes;
    this.nextFreeCheck =
      this.stored + Math.min(FREE_CHECK_MAX, Math.max(FREE_CHECK_MIN, Math.floor(spare / 2)));
    if (spare >= length) return length;
    this.error = `less than ${formatBytes(this.limits.minFreeBytes)} would be left free on the disk (--min-free, CTXWRAP_MIN_FREE)`;
    return Math.max(0, spare);
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
