// Helpers for the end-to-end tests of read, list, note, clean and stats: spawn the built CLI
// against a fresh temporary run directory, and write results straight into one when a test
// needs a result the CLI cannot make quickly (an old one, a huge one).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { BIN, ROOT } from '../helpers.js';

/** The repository and the built CLI, as every test finds them. */
export { ROOT };
export const CLI = BIN;
export const SCRIPTS = join(ROOT, 'fixtures', 'scripts');
export const script = (name: string) => join(SCRIPTS, name);

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();
const dirs: string[] = [];

afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh run directory, removed after the test file. */
export function tempRunDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-e2e-'));
  dirs.push(dir);
  return join(dir, 'run');
}

/** Starts ctxwrap; the process is killed after the test if still running. */
export function start(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<Ran> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1', CTXWRAP_TTL: '', CTXWRAP_RUN_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<Ran>((resolve) => {
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
}

/** Runs ctxwrap to the end. */
export function ctxwrap(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return start(args, env).done;
}

/** Runs a command under ctxwrap and returns the new result's id (from the run directory). */
export async function stored(
  runDir: string,
  command: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const ran = await ctxwrap(['--run-dir', runDir, '--', ...command], env);
  const m = /\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(ran.stdout);
  if (m) return m[1] as string;
  const list = await ctxwrap(['list', '--json', '--run-dir', runDir]);
  const newest = (JSON.parse(list.stdout) as { id: string }[])[0];
  if (!newest) throw new Error(`no result stored: ${ran.stdout}${ran.stderr}`);
  return newest.id;
}

/** Writes a complete result directly (output, metadata), as `ctxwrap run` would leave it. */
export function writeResult(
  runDir: string,
  id: string,
  output: string | Buffer,
  meta: Record<string, unknown> = {},
): void {
  const results = join(runDir, 'tool_results');
  mkdirSync(results, { recursive: true, mode: 0o700 });
  const bytes = Buffer.from(output);
  writeFileSync(join(results, `${id}.txt`), bytes);
  let lines = 0;
  for (const b of bytes) if (b === 10) lines++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
  writeFileSync(
    join(results, `${id}.json`),
    JSON.stringify({
      version: 1,
      id,
      command: ['make', 'all'],
      source: 'command',
      cwd: '/tmp',
      startedAt: new Date().toISOString(),
      state: 'complete',
      pid: 1,
      durationMs: 1000,
      exitCode: 0,
      childExitCode: 0,
      signal: null,
      endReason: 'exit',
      bytes: bytes.length,
      lines,
      summaryBytes: 500,
      ...meta,
    }),
  );
}

/** An ISO time `ms` milliseconds ago. */
export const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Waits until `check` is true (polling), or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts `ctxwrap -- wait-for-signal.mjs` in a run directory and waits until it is listed as
 * running with its first output stored; SIGTERM to `child` ends it (exit 0).
 */
export async function startRunning(
  runDir: string,
): Promise<{ id: string; child: ChildProcess; done: Promise<Ran> }> {
  const run = start(['--run-dir', runDir, '--', process.execPath, script('wait-for-signal.mjs')]);
  let id = '';
  await until(async () => {
    const listed = await ctxwrap(['list', '--json', '--run-dir', runDir]);
    const results = JSON.parse(listed.stdout || '[]') as { id: string; state: string; bytes: number }[];
    id = results.find((r) => r.state === 'running' && r.bytes > 0)?.id ?? '';
    return id !== '';
  });
  return { id, ...run };
}
