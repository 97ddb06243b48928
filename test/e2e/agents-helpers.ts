// Helpers for the end-to-end tests of issue 5 (prompt, hook, init, open, completion): spawn the
// BUILT ctxwrap with a fresh temp run directory and HOME, capture everything.
import { type SpawnSyncOptions, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers.js';

/** The repository and the built CLI, as every test finds them. */
export { ROOT };
export const CLI = BIN;

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = 'ctxwrap-agents-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A sandbox: HOME, a run dir and a bin dir with `ctxwrap` on PATH, all under one temp dir. */
export function sandbox(): {
  root: string;
  home: string;
  runDir: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
} {
  const { path: root, cleanup } = tempDir();
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  const runDir = join(root, 'run');
  mkdirSync(home);
  mkdirSync(bin);
  symlinkSync(CLI, join(bin, 'ctxwrap'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    CTXWRAP_RUN_DIR: runDir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
  };
  return { root, home, runDir, env, cleanup };
}

/** Runs the built CLI with `args`. */
export function ctxwrap(args: string[], opts: SpawnSyncOptions & { input?: string } = {}): Result {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000, ...opts });
  return { code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** Runs a shell command line with /bin/sh. */
export function sh(line: string, opts: SpawnSyncOptions & { input?: string } = {}): Result {
  const r = spawnSync('/bin/sh', ['-c', line], { encoding: 'utf8', timeout: 30_000, ...opts });
  return { code: r.status, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** The subcommands `ctxwrap --help` lists. */
export function subcommands(env?: NodeJS.ProcessEnv): string[] {
  const help = ctxwrap(['--help'], env ? { env } : {}).stdout;
  const section = (help.split(/\nCommands:\n/)[1] ?? '').split(/\n\n/)[0] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] as string).filter((c) => c !== 'help');
}
