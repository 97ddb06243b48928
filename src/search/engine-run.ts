/**
 * One run of a search engine (engine.ts) over some outputs, its matches handed to `parse` as
 * they are read. The engine writes them to a scratch file, read as it grows (every POLL_MS) and
 * once it has ended, rather than to a pipe: a common word's matches (a megabyte of them) came through a pipe in some 200 reads
 * of a few KiB, each an event in JavaScript, which cost three times the CPU of reading the file
 * (18-28 ms against 7-12 ms for `error` over the bench corpus, in two processes). The file is
 * made in the temporary directory, readable by its owner only, and unlinked at once: nothing is
 * left behind, and nothing is written under the run directory. When it cannot be made, a pipe.
 */
import { closeSync, openSync, readSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Engine, spawnEngine } from './engine.js';

/** Bytes of the engine's output parsed at a time (memory stays flat whatever the matches). */
const BLOCK_BYTES = 1 << 20;

/** An unlinked scratch file open for reading and writing; undefined when none can be made. */
function scratch(): number | undefined {
  const path = join(tmpdir(), `ctxwrap-scan-${process.pid}-${Math.random().toString(36).slice(2)}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(path);
  } catch {
    closeSync(fd);
    return undefined;
  }
  return fd;
}

/**
 * A reader of `fd` as the engine writes it: each call hands `parse` the bytes written since the
 * last, a block at a time.
 */
function reader(fd: number, parse: (chunk: Buffer) => void): () => void {
  const buf = Buffer.allocUnsafe(BLOCK_BYTES);
  let pos = 0;
  return () => {
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, pos);
      if (got === 0) return;
      // The parser keeps a cut line's bytes itself (a copy), so the block can be read into again.
      parse(buf.subarray(0, got));
      pos += got;
    }
  };
}

/**
 * How often what the engine has written so far is parsed while it runs: the caller reads the
 * metadata meanwhile, in steps, and then waits; the parse of a common word's matches (some 30 ms
 * of CPU) overlaps the engine's run instead of following it.
 */
const POLL_MS = 2;

/**
 * Runs `engine` for `patterns` over `files` (relative to `cwd`): 'ok' when it ended with or
 * without matches, 'failed' when it failed or was stopped, 'unrunnable' when it could not start.
 */
export function runEngine(
  engine: Engine,
  patterns: string[],
  files: string[],
  cwd: string,
  parse: (chunk: Buffer) => void,
  signal?: AbortSignal,
): Promise<'ok' | 'failed' | 'unrunnable'> {
  return new Promise((resolve) => {
    const file = scratch();
    let open = file !== undefined;
    const drain = file === undefined ? undefined : reader(file, parse);
    let failed = false;
    let timer: NodeJS.Timeout | undefined;
    const poll = () => {
      if (!open) return;
      try {
        drain!();
      } catch {
        failed = true;
        return;
      }
      timer = setTimeout(poll, POLL_MS);
    };
    const done = (end: 'ok' | 'failed' | 'unrunnable') => {
      clearTimeout(timer);
      if (open) {
        open = false;
        try {
          if (end === 'ok') {
            if (failed) throw new Error('unreadable');
            drain!();
          }
        } catch {
          end = 'failed';
        } finally {
          closeSync(file!);
        }
      }
      resolve(end);
    };
    let child: ReturnType<typeof spawnEngine>;
    try {
      child = spawnEngine(engine, patterns, files, cwd, signal, file);
    } catch {
      done('unrunnable');
      return;
    }
    if (file === undefined) child.stdout!.on('data', parse);
    else timer = setTimeout(poll, POLL_MS);
    // Not started (missing, not executable): the next engine; a close follows, or not.
    child.on('error', () => done('unrunnable'));
    child.on('close', (code) => done(code === 0 || code === 1 ? 'ok' : 'failed'));
  });
}
