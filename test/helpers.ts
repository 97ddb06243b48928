import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options, type ResultPromise } from 'execa';
import { afterEach } from 'vitest';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'ctxwrap.js');
export const SCRIPTS = join(ROOT, 'fixtures', 'scripts');
export const script = (name: string) => join(SCRIPTS, name);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = 'ctxwrap-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** An environment pinned to a temp run dir, with nothing from the user's own configuration. */
export function cleanEnv(runDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CTXWRAP_')) env[k] = v;
  return { ...env, CTXWRAP_RUN_DIR: runDir, NO_COLOR: '1', ...extra };
}

/** Spawns the built CLI; never rejects, so tests assert on exit code, stdout and stderr. */
export function ctxwrap(
  args: string[],
  opts: { runDir: string; env?: Record<string, string> } & Options = { runDir: '' },
): ResultPromise {
  const { runDir, env, ...rest } = opts;
  return execa('node', [BIN, ...args], {
    reject: false,
    stripFinalNewline: false,
    env: cleanEnv(runDir, env),
    extendEnv: false,
    ...('input' in rest ? {} : { stdin: 'ignore' }),
    ...rest,
  } as Options);
}

/** The ids stored in a run dir. */
export function storedIds(runDir: string): string[] {
  try {
    return readdirSync(join(runDir, 'tool_results'))
      .filter((f) => /^[a-z0-9-]+_[0-9a-f]{8}\.json$/.test(f))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

export function onlyId(runDir: string): string {
  const ids = storedIds(runDir);
  if (ids.length !== 1) throw new Error(`expected one result in ${runDir}, found ${ids.length}`);
  return ids[0] as string;
}

export function storedOutput(runDir: string, id: string): Buffer {
  return readFileSync(join(runDir, 'tool_results', `${id}.txt`));
}

export function storedMeta(runDir: string, id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(runDir, 'tool_results', `${id}.json`), 'utf8'));
}

/** Resolves when `predicate` holds, polling; fails after `ms`. */
export async function waitFor(predicate: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out waiting for condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}
