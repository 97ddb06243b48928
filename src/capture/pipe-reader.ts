/**
 * Reads ctxwrap's end of the command's output pipe as bytes arrive, into one buffer reused for
 * every read (no allocation per read: the consumer stores or copies what it keeps before it
 * returns). It can stop reading at a byte boundary and give its descriptor away (to the drainer
 * that takes over the pipe from a background process: see drainer.ts).
 */
import { Socket, type SocketConstructorOpts } from 'node:net';
import { AFTER_BYTES, enlargePipe } from './pipe-size.js';

/** The most one read takes (a pipe holds 64 KiB unless it was made bigger). */
const READ_BYTES = 1 << 20;

export class PipeReader {
  /** True once every writer has closed the pipe and everything in it has been read. */
  ended = false;
  private readonly socket: Socket;
  private onEnd: (() => void) | undefined;
  /** Bytes read, up to the size at which the pipe is made bigger (see pipe-size.ts). */
  private bytes = 0;

  /** True while the consumer has asked it to wait (see the constructor). */
  held = false;
  /** True once `pause` or `close` has stopped it for good. */
  private stopped = false;

  /**
   * `onChunk` gets each piece once, in order: a view of the reader's one buffer, valid until it
   * returns. When it returns a promise, nothing more is read until that settles.
   */
  constructor(
    readonly fd: number,
    onChunk: (chunk: Buffer) => void | Promise<void>,
  ) {
    this.socket = new Socket({
      fd,
      readable: true,
      writable: false,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        callback: (n: number, buf: Buffer) => {
          if (this.bytes < AFTER_BYTES) {
            this.bytes += n;
            if (this.bytes >= AFTER_BYTES) enlargePipe(fd);
          }
          const wait = onChunk(buf.subarray(0, n));
          if (wait) this.hold(wait);
          return true;
        },
      },
      // node reads into the given buffer (no allocation per read); its types lack the option.
    } as SocketConstructorOpts);
    const end = () => {
      if (this.ended) return;
      this.ended = true;
      this.onEnd?.();
    };
    this.socket.on('end', end);
    this.socket.on('close', end);
    this.socket.on('error', end);
    this.socket.resume();
  }

  /** Calls `fn` once the pipe has ended (at once if it has). */
  whenEnded(fn: () => void): void {
    if (this.ended) fn();
    else this.onEnd = fn;
  }

  /** Reads nothing more until `wait` settles. */
  private hold(wait: Promise<void>): void {
    this.held = true;
    this.socket.pause();
    const go = () => {
      this.held = false;
      if (!this.stopped) this.socket.resume();
    };
    wait.then(go, go);
  }

  /** Stops reading: nothing more is taken from the pipe (what is in it stays there). */
  pause(): void {
    this.stopped = true;
    this.socket.pause();
  }

  /** Closes ctxwrap's descriptor. */
  close(): void {
    this.stopped = true;
    this.onEnd = undefined;
    this.socket.destroy();
  }
}
