// The summary built after the command exits is the process's last work: V8 compiling code for
// later (TurboFan, on a background thread) only competes with it for the CPU and holds up the
// exit, so once the output is read ctxwrap stops optimising (see src/capture/last-work.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishResult } from '../../src/capture/finish-result.js';
import { optimizeNoMore } from '../../src/capture/last-work.js';
import { newId } from '../../src/store/ids.js';
import { resultPaths, writeMeta } from '../../src/store/results.js';
import { ensureRunDir } from '../../src/store/run-dir.js';

// The module node gives every caller (the flag itself is not set: this process goes on).
const setFlags = vi
  .spyOn(process.getBuiltinModule('node:v8'), 'setFlagsFromString')
  .mockImplementation(() => {});

afterEach(() => setFlags.mockClear());

describe('optimizeNoMore', () => {
  it('turns V8 optimising compiler off', () => {
    optimizeNoMore();
    expect(setFlags).toHaveBeenCalledWith('--no-turbofan');
  });
});

describe('finishResult: the last work of the process', () => {
  const finish = (lastWork: boolean) => {
    const root = mkdtempSync(join(tmpdir(), 'ctxwrap-last-'));
    try {
      const dir = ensureRunDir(root);
      const id = newId('sh');
      const meta = {
        version: 1 as const,
        id,
        command: ['sh'],
        source: 'command' as const,
        cwd: root,
        startedAt: new Date().toISOString(),
        state: 'running' as const,
        pid: process.pid,
      };
      writeMeta(dir, meta);
      writeFileSync(resultPaths(dir, id).output, 'error: one\nwarning: two\n');
      return finishResult({
        dir,
        meta,
        ending: { exitCode: 1, reason: 'exit' },
        childExitCode: 1,
        signal: null,
        durationMs: 5,
        options: { budget: 2000, tailRatio: 0.7, inlineThreshold: 2000, redact: true },
        ...(lastWork ? { lastWork: true } : {}),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  it('stops optimising once the output is read, when asked', () => {
    const finished = finish(true);
    expect(setFlags.mock.calls).toEqual([['--no-turbofan']]);
    expect(finished.text).toContain('error: one');
  });

  it('leaves the compiler alone otherwise (a process with more work to do)', () => {
    finish(false);
    expect(setFlags).not.toHaveBeenCalled();
  });
});
