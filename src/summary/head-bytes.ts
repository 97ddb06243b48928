/** The start of an output, kept whole: at least `keepBytes`, to the end of the line it stops in. */

import { copyOf } from './sniff.js';

const NL = 10;

export class HeadBytes {
  private parts: Buffer[] = [];
  /** Bytes kept. */
  length = 0;
  /** True once the head is complete (nothing more is kept). */
  done = false;

  constructor(private readonly keepBytes: number) {}

  /** Keeps what of the next bytes belongs to the head (up to 2x keepBytes for a long line). */
  push(buf: Buffer): void {
    if (this.done) return;
    let take = buf.length;
    if (this.length + take > this.keepBytes) {
      const need = Math.max(0, this.keepBytes - this.length);
      const nl = buf.indexOf(NL, need);
      const limit = 2 * this.keepBytes - this.length;
      take = nl === -1 ? Math.min(buf.length, limit) : Math.min(nl + 1, limit);
      if (nl !== -1 || take === limit) this.done = true;
    }
    this.parts.push(copyOf(buf.subarray(0, take)));
    this.length += take;
  }

  /** The head's bytes. */
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}
