// Helpers for the reliability tests of issue 6: mounts that hold for root (tmpfs, full or
// read-only), process checks, and a controllable child of the built CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

const mounted: string[] = [];
const owned: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0).reverse()) spawnSync('umount', ['-l', dir]);
});
// After the file, not after each test: tests of a concurrent block share the list.
afterAll(() => {
  for (const dir of owned.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp directory of this file's own, removed after the test file (any mount in it is gone by then). */
export function scratch(prefix = 'ctxwrap-reliab-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  owned.push(dir);
  return dir;
}

let probe: boolean | undefined;
/** True when this machine lets the tests mount a tmpfs (checked once, with a real mount). */
export function canMount(): boolean {
  if (probe !== undefined) return probe;
  // CTXWRAP_TEST_NO_MOUNT=1 runs the tests as on a machine that refuses mounting.
  if (process.env.CTXWRAP_TEST_NO_MOUNT) {
    probe = false;
    return probe;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-probe-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
  probe = r.status === 0;
  if (probe) spawnSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
  return probe;
}

/** Mounts a tmpfs of `size` (e.g. `64k`) on `dir`, mode 0700; unmounted after the test. */
export function mountTmpfs(dir: string, size: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounted.push(dir);
}

export function remountReadOnly(dir: string): void {
  execFileSync('mount', ['-o', 'remount,ro', dir]);
}

/** True when no process `pid` is left (gone, or a zombie waiting to be reaped). */
export function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return !existsSync(`/proc/${pid}`);
  }
}

/** Kills a process left behind by a failed test, quietly. */
export function killQuietly(pid: number | undefined): void {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Reads a pid a fixture wrote to `file`, once it is there. */
export function readPid(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}
