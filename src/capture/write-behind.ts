/**
 * Stores a big output without making ctxwrap's one thread wait for the disk: past its first
 * SYNC_BYTES, each chunk is copied into a ring of RING_BYTES (4 MiB) and written from there on libuv's
 * thread pool (one write at a time, in order: see OutputFile.writeLater), while the thread goes
 * on summarising. The kernel's write path (page cache, dirty-page throttling) then runs on the
 * other core. Small outputs are written at once, as before, and never allocate the ring.
 *
 * When the ring fills (a disk slower than the command), `push` returns a promise that settles
 * once there is room again: the reader stops reading meanwhile, and the command waits on its
 * full pipe, as it would for a slow disk unwrapped. `flush` settles once every byte pushed has
 * been written (or storing stopped): the result file is complete only then.
 */
import type { OutputFile } from '../store/output-file.js';

/** Bytes written at once, before the ring is used. */
const SYNC_BYTES = 1 << 20;
const RING_BYTES = 4 << 20;
/** Room the reader waits for: its biggest read (1 MiB) and as much again skipped at the ring's end. */
const ROOM_BYTES = 2 << 20;

interface Queued {
  bytes: Buffer;
  /** Ring bytes it holds (its own and those skipped before it), 0 for a copy of its own. */
  held: number;
}

export class WriteBehind {
  private ring: Buffer | undefined;
  /** Where the next copy goes, and the ring bytes queued or being written. */
  private head = 0;
  private used = 0;
  private readonly queue: Queued[] = [];
  private writing = false;
  private pushed = 0;
  private roomWaiter: (() => void) | undefined;
  private flushWaiters: (() => void)[] = [];

  constructor(private readonly sink: OutputFile) {}

  /** Stores `chunk` (copied: the caller may reuse it); a promise when the reader should wait. */
  push(chunk: Buffer): Promise<void> | undefined {
    if (chunk.length === 0) return undefined;
    this.pushed += chunk.length;
    if (!this.ring && this.pushed <= SYNC_BYTES) {
      this.sink.write(chunk);
      return undefined;
    }
    this.ring ??= Buffer.allocUnsafe(RING_BYTES);
    this.queue.push(this.copy(chunk, this.ring));
    if (!this.writing) this.writeNext();
    if (RING_BYTES - this.used >= ROOM_BYTES) return undefined;
    return new Promise<void>((resolve) => {
      this.roomWaiter = resolve;
    });
  }

  /** Settles once everything pushed has been written or storing stopped. */
  flush(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise<void>((resolve) => this.flushWaiters.push(resolve));
  }

  /** A copy of `chunk` in the ring, contiguous (or a copy of its own when the ring has no room). */
  private copy(chunk: Buffer, ring: Buffer): Queued {
    const len = chunk.length;
    if (this.used === 0) this.head = 0;
    // Where the ring's end is too near, the copy starts again at its start (the rest is skipped).
    const wrap = this.head + len > RING_BYTES;
    const skip = wrap ? RING_BYTES - this.head : 0;
    if (this.used + skip + len > RING_BYTES) return { bytes: Buffer.from(chunk), held: 0 };
    const at = wrap ? 0 : this.head;
    chunk.copy(ring, at);
    this.head = at + len;
    this.used += skip + len;
    return { bytes: ring.subarray(at, at + len), held: skip + len };
  }

  private writeNext(): void {
    const next = this.queue.shift();
    if (!next) {
      this.writing = false;
      for (const resolve of this.flushWaiters.splice(0)) resolve();
      return;
    }
    this.writing = true;
    this.sink.writeLater(next.bytes, () => {
      this.used -= next.held;
      if (this.roomWaiter && RING_BYTES - this.used >= ROOM_BYTES) {
        const resolve = this.roomWaiter;
        this.roomWaiter = undefined;
        resolve();
      }
      this.writeNext();
    });
  }
}
