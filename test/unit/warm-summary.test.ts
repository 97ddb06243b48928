import { describe, expect, it } from 'vitest';
import { SummaryWarmer } from '../../src/capture/warm-summary.js';

const block = (bytes: number) => Buffer.alloc(bytes, 'gcc -c src/a.c -o a.o\nwarning: unused variable x\n');

describe('SummaryWarmer: warms the summary while a long output streams and the reader is idle', () => {
  it('waits for 1 MiB of output and a read that found the pipe not full', () => {
    const w = new SummaryWarmer({});
    for (let i = 0; i < 15; i++) w.push(block(64 << 10));
    w.push(block(1000));
    expect(w.warmed).toBe(false); // 961 kB: short outputs never pay
    w.push(block(64 << 10));
    expect(w.warmed).toBe(false); // a full read: the reader is behind, no idle time to use
    w.push(block(1000));
    expect(w.warmed).toBe(true);
  });
});
