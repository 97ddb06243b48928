import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PipeReader } from '../../src/capture/pipe-reader.js';
import { WriteBehind } from '../../src/capture/write-behind.js';
import { OutputFile } from '../../src/store/output-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Pushes `data` in chunks of the given sizes (in turn) through a reused buffer, as the pipe
 * reader does (waiting when asked), and returns the file and what the sink says.
 */
async function store(data: Buffer, sizes: number[], maxBytes = Number.POSITIVE_INFINITY) {
  const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-write-behind-'));
  dirs.push(dir);
  const sink = new OutputFile(join(dir, 'out'), { maxBytes, minFreeBytes: 0 });
  const behind = new WriteBehind(sink);
  const buf = Buffer.alloc(Math.max(...sizes));
  let waits = 0;
  for (let at = 0, k = 0; at < data.length; k++) {
    const n = data.copy(buf, 0, at, Math.min(data.length, at + (sizes[k % sizes.length] as number)));
    at += n;
    const wait = behind.push(buf.subarray(0, n));
    buf.fill(0); // the reader's buffer is read into again at once
    if (wait) {
      waits++;
      await wait;
    }
  }
  await behind.flush();
  sink.close();
  return { file: readFileSync(sink.path), stored: sink.stored, error: sink.error, waits };
}

describe('WriteBehind: every byte stored, in order, through the ring', () => {
  const data = randomBytes(30 << 20);

  it('chunks of exactly 64 KiB (the ring ends exactly on a chunk: 9 of 30 MiB were stored)', async () => {
    const r = await store(data, [65536]);
    expect(r.error).toBeUndefined();
    expect(r.stored).toBe(data.length);
    expect(r.file.equals(data)).toBe(true);
  });

  it('chunks of odd sizes up to 1 MiB', async () => {
    const r = await store(data, [1 << 20, 65536 - 3, 777_777, 1, 300_001, (1 << 20) - 1]);
    expect(r.stored).toBe(data.length);
    expect(r.file.equals(data)).toBe(true);
  });

  it('the cap on stored bytes holds past the ring, with the reason', async () => {
    const r = await store(data, [65536, 999_999], 20_000_001);
    expect(r.stored).toBe(20_000_001);
    expect(r.file.equals(data.subarray(0, 20_000_001))).toBe(true);
    expect(r.error).toMatch(/cap of/);
  });
});

describe('PipeReader held back by its consumer (a promise from onChunk)', () => {
  it('reads nothing while held, then every byte in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-held-'));
    dirs.push(dir);
    const path = join(dir, 'p');
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = openSync(path, constants.O_WRONLY);
    unlinkSync(path);
    const data = randomBytes(3 << 20);
    const file = join(dir, 'data');
    writeFileSync(file, data);
    const child = spawn('cat', [file], { stdio: ['ignore', writeFd, 'ignore'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    closeSync(writeFd);
    const got: Buffer[] = [];
    let whileHeld = 0;
    let holding = false;
    const heldSeen: boolean[] = [];
    await new Promise<void>((resolve) => {
      const reader = new PipeReader(readFd, (chunk) => {
        if (holding) whileHeld++;
        got.push(Buffer.from(chunk));
        if (got.length % 3 !== 0) return undefined;
        holding = true;
        return new Promise<void>((go) =>
          setTimeout(() => {
            heldSeen.push(reader.held);
            holding = false;
            go();
          }, 20),
        );
      });
      reader.whenEnded(() => {
        reader.close();
        resolve();
      });
    });
    await exited;
    expect(whileHeld).toBe(0);
    expect(heldSeen.length).toBeGreaterThan(0);
    expect(heldSeen.every((h) => h)).toBe(true);
    expect(Buffer.concat(got).equals(data)).toBe(true);
  });
});
