/**
 * Reads ctxwrap's end of the command's output pipe as bytes arrive, into one buffer reused for
 * every read (no allocation per read: the consumer stores or copies what it keeps before it
 * returns). It can stop reading at a byte boundary and give its descriptor away (to the drainer
 * that takes over the pipe from a background process: see drainer.ts).
 */
import { Socket, type SocketConstructorOpts } from 'node:net';

/** The most one read takes (a pipe holds 64 KiB unless it was made bigger). */
const READ_BYTES = 1 << 20;

export class PipeReader {
  /** True once every writer has closed the pipe and everything in it has been read. */
  ended = false;
  private readonly socket: Socket;
  private onEnd: (() => void) | undefined;

  /**
   * `onChunk` gets each piece once, in order: a view of the reader's one buffer, valid until it
   * returns.
   */
  constructor(
    readonly fd: number,
    onChunk: (chunk: Buffer) => void,
  ) {
    this.socket = new Socket({
      fd,
      readable: true,
      writable: false,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BYTES),
        callback: (n: number, buf: Buffer) => {
          onChunk(buf.subarray(0, n));
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

  /** Stops reading: nothing more is taken from the pipe (what is in it stays there). */
  pause(): void {
    this.socket.pause();
  }

  /** Closes ctxwrap's descriptor. */
  close(): void {
    this.onEnd = undefined;
    this.socket.destroy();
  }
}
