/**
 * Follows a result file as the command writes it (like `tail -f`), handing what it reads to
 * `onChunk` in file order. ctxwrap is not in the command's data path: a slow summary only
 * delays the summary, never the command.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';

/** Bytes read in one go; the reading yields to the event loop after `YIELD_BYTES`. */
const READ_BYTES = 1 << 20;
const YIELD_BYTES = 16 << 20;
/** Polling interval when caught up: doubles from the first to the last while nothing comes. */
const POLL_FIRST_MS = 1;
const POLL_LAST_MS = 50;

export class FileFollower {
  /** Bytes read so far (the file offset of the next read). */
  position = 0;
  /** One buffer for every read: fresh memory for each would cost page faults. */
  private readonly buffer = Buffer.allocUnsafe(READ_BYTES);
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private delay = POLL_FIRST_MS;
  private stopped = false;

  /**
   * `fd` is open for reading on the result file; `onChunk` gets each piece once, in order. The
   * piece is a view of the follower's one buffer, valid until `onChunk` returns: a consumer that
   * keeps bytes copies them.
   */
  constructor(
    private fd: number,
    private onChunk: (chunk: Buffer) => void,
  ) {}

  /** Starts following the file in the background. */
  start(): void {
    this.schedule(0);
  }

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

  /** Closes the descriptor (only for a follower that opened it: see finishResult). */
  close(): void {
    this.stop();
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }

  /** Stops following; what is still unread stays for `readAvailable`. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (ms === 0) this.immediate = setImmediate(() => this.pump());
    else this.timer = setTimeout(() => this.pump(), ms);
  }

  private pump(): void {
    if (this.stopped) return;
    let got = 0;
    try {
      got = this.readAvailable(YIELD_BYTES);
    } catch {
      // A read error here is retried at the end (readAvailable after the command has exited).
      this.stop();
      return;
    }
    if (got > 0) {
      this.delay = POLL_FIRST_MS;
      this.schedule(0);
      return;
    }
    this.schedule(this.delay);
    this.delay = Math.min(this.delay * 2, POLL_LAST_MS);
  }
}
