/**
 * The stored output of one run, written as it arrives. A failed write (disk full, quota, the
 * file system gone read-only) stops the storing, never the run: the bytes that made it are
 * counted and the reason kept for one line at the end.
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { reason } from './run-dir.js';

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
    try {
      return fstatSync(this.fd).nlink === 0;
    } catch {
      return false;
    }
  }

  /**
   * Copies everything stored so far into a new file at `path` and writes there from now on:
   * what was written to a file whose directory was removed is not lost.
   */
  moveTo(path: string): void {
    const fd = openSync(path, 'wx+', 0o600);
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      for (let pos = 0; pos < this.stored; ) {
        const n = readSync(this.fd, buf, 0, Math.min(buf.length, this.stored - pos), pos);
        if (n === 0) break;
        for (let off = 0; off < n; ) off += writeSync(fd, buf, off, n - off);
        pos += n;
      }
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
