// Helpers for the end-to-end tests of search: run the built CLI against a fresh temporary run
// directory, store outputs through it (ctxwrap -- node emit-text.mjs file), and reach into the
// run directory where a test needs what the CLI cannot make quickly (a note, an old result).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { BIN, ROOT } from '../helpers.js';

/** The repository and the built CLI, as every test finds them. */
export { ROOT };
export const CLI = BIN;
export const EMIT = join(ROOT, 'fixtures', 'scripts', 'emit-text.mjs');

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
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory holding `run/` (the run directory) and the texts a test stores. */
export function tempDir(): { root: string; runDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'ctxwrap-search-e2e-'));
  dirs.push(root);
  return { root, runDir: join(root, 'run') };
}

/** Runs ctxwrap with `args`; resolves with its exit code and output. */
export function ctxwrap(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      CTXWRAP_TTL: '',
      CTXWRAP_RUN_DIR: '',
      CTXWRAP_INDEX_BYTES: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Stores `text` as a result (through `ctxwrap --name`), returns its id. */
export async function store(root: string, runDir: string, name: string, text: string): Promise<string> {
  const file = join(root, `${name}-${Math.random().toString(16).slice(2)}.txt`);
  writeFileSync(file, text);
  const r = await ctxwrap(['--run-dir', runDir, '--name', name, '--', process.execPath, EMIT, file]);
  const dir = join(runDir, 'tool_results');
  const id = readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !n.endsWith('.fp.json'))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { id: string; name?: string })
    .find((m) => m.name === name)?.id;
  if (!id) throw new Error(`no result named ${name}: ${r.stdout}\n${r.stderr}`);
  return id;
}

/** `count` numbered filler lines that match no test query. */
export function filler(count: number, from = 1): string[] {
  return Array.from({ length: count }, (_, i) => `step ${from + i}: compiled module m${from + i} in 3ms`);
}

/** Edits a result's metadata (for a note or an old start time). */
export function editMeta(runDir: string, id: string, edit: (meta: Record<string, unknown>) => void): void {
  const path = join(runDir, 'tool_results', `${id}.json`);
  const meta = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  edit(meta);
  writeFileSync(path, JSON.stringify(meta));
}

export function indexFiles(runDir: string): string[] {
  try {
    return readdirSync(join(runDir, 'index')).sort();
  } catch {
    return [];
  }
}

/** The `[ctxwrap hit i/n] <id> lines a-b` frames of a search output, in order. */
export function frames(stdout: string): { id: string; first: number; last: number }[] {
  return [...stdout.matchAll(/^\[ctxwrap hit \d+\/\d+\] (\S+) lines (\d+)-(\d+) /gm)].map((m) => ({
    id: m[1] as string,
    first: Number(m[2]),
    last: Number(m[3]),
  }));
}
