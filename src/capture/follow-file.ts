/**
 * Reads a result file that something else wrote (an agent's shell, through the hook), handing
 * what it reads to `onChunk` in file order (see finishResult).
 */
import { closeSync, fstatSync, readSync } from 'node:fs';

/** Bytes read in one go. */
const READ_BYTES = 1 << 20;

export class FileFollower {
  /** Bytes read so far (the file offset of the next read). */
  position = 0;
  /** One buffer for every read: fresh memory for each would cost page faults. */
  private readonly buffer = Buffer.allocUnsafe(READ_BYTES);

  /**
   * `fd` is open for reading on the result file; `onChunk` gets each piece once, in order. The
   * piece is a view of the follower's one buffer, valid until `onChunk` returns: a consumer that
   * keeps bytes copies them.
   */
  constructor(
    private fd: number,
    private onChunk: (chunk: Buffer) => void,
  ) {}

  /** Reads everything written so far, up to `limit` bytes in all; returns the number of bytes read. */
  readAvailable(limit = Number.POSITIVE_INFINITY): number {
    let total = 0;
    while (total < limit) {
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, this.position);
      if (n === 0) break;
      const chunk = this.buffer.subarray(0, n);
      this.position += n;
      total += n;
      this.onChunk(chunk);
    }
    return total;
  }

  /**
   * True when the file is now shorter than what was read: the command truncated it (it opened
   * /dev/stdout or /dev/stderr anew with `>`, as `cmd > /dev/stdout` does), so that what it had
   * written before may be gone from the file.
   */
  wasTruncated(): boolean {
    try {
      return fstatSync(this.fd).size < this.position;
    } catch {
      return false;
    }
  }

  /** The file's size now. */
  size(): number {
    return fstatSync(this.fd).size;
  }

  /** Closes the descriptor. */
  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }
}
