import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PipeReader } from '../../src/capture/pipe-reader.js';
import { AFTER_BYTES, enlargePipe, PIPE_BYTES } from '../../src/capture/pipe-size.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A FIFO's two ends, its name already gone (as output-pipe.ts makes them). */
function fifo(): { dir: string; readFd: number; writeFd: number } {
  const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-pipe-size-'));
  dirs.push(dir);
  const path = join(dir, 'p');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  unlinkSync(path);
  return { dir, readFd, writeFd };
}

/** Bytes a non-blocking writer gets into the pipe before it is full (nobody reads). */
function room(writeFd: number): number {
  const block = Buffer.alloc(4096, 120);
  let n = 0;
  for (;;) {
    try {
      n += writeSync(writeFd, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return n;
      throw error;
    }
  }
}

describe.runIf(process.platform === 'linux')('the output pipe made bigger (pipe-size.ts)', () => {
  it('holds PIPE_BYTES once enlargePipe has run on its read end (a new pipe holds 64 KiB)', async () => {
    const small = fifo();
    expect(room(small.writeFd)).toBe(64 * 1024);
    const big = fifo();
    await new Promise<void>((resolve) => enlargePipe(big.readFd, resolve));
    expect(room(big.writeFd)).toBe(PIPE_BYTES);
    for (const p of [small, big]) for (const fd of [p.readFd, p.writeFd]) closeSync(fd);
  });

  it('PipeReader reads more than 64 KiB at a time from a fast writer once AFTER_BYTES have passed', async () => {
    const { dir, readFd, writeFd } = fifo();
    const file = join(dir, 'data');
    writeFileSync(file, Buffer.alloc(AFTER_BYTES + (8 << 20), 97));
    const child = spawn('cat', [file], { stdio: ['ignore', writeFd, 'ignore'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    closeSync(writeFd);
    let most = 0;
    let total = 0;
    await new Promise<void>((resolve) => {
      const reader = new PipeReader(readFd, (chunk) => {
        if (total >= AFTER_BYTES) most = Math.max(most, chunk.length);
        total += chunk.length;
        // A slow reader: the writer fills what the pipe holds meanwhile.
        const until = Date.now() + 2;
        while (Date.now() < until);
      });
      reader.whenEnded(() => {
        reader.close();
        resolve();
      });
    });
    await exited;
    expect(total).toBe(AFTER_BYTES + (8 << 20));
    expect(most).toBeGreaterThan(64 * 1024);
  });
});
