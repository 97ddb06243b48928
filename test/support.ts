// The one test support module: where the built CLI and the fixtures are, one way to spawn the
// CLI (or a shell line that uses it), one temporary directory, what a run directory holds, and
// the processes and mounts a test makes, each undone after the test or the file.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, execaSync, type Options, type Result, type ResultPromise, type SyncResult } from 'execa';
import { afterAll, afterEach } from 'vitest';
import { parseFastSearchArgs, runSearch } from '../src/cli/fast-search.js';
import { listResults } from '../src/commands/list.js';
import { readResult } from '../src/commands/read.js';
import { resolveTtl } from '../src/env.js';
import { CtxwrapError } from '../src/errors.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI (`npm run build` first). */
export const BIN = join(ROOT, 'bin', 'ctxwrap.js');
export const SCRIPTS = join(ROOT, 'fixtures', 'scripts');
export const script = (name: string) => join(SCRIPTS, name);
/** `node EMIT file` prints the file as it is. */
export const EMIT = script('emit-text.mjs');

// ---------------------------------------------------------------------------------------------
// Temporary directories, removed after the test file (tests of a concurrent block share them,
// and every mount in them is gone by then).

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file. */
export function tempDir(prefix = 'ctxwrap-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Spawning: every child still running after the test file is SIGKILLed (after the file, not
// after each test: the tests of a concurrent block run side by side).

type Fixed = { reject: false; stripFinalNewline: false };
/** A running CLI or shell line: await it for exitCode, stdout, stderr; `pid`, `kill()` meanwhile. */
export type Running = ResultPromise<Fixed>;
export type Ran = Result<Fixed>;
export type RanSync = SyncResult<Fixed>;

/**
 * How a test runs the CLI. `runDir` pins CTXWRAP_RUN_DIR (without it no run directory is set
 * from the environment: pass `--run-dir`); `env` is laid over the test's environment, from which
 * every CTXWRAP_* variable has been removed; the rest are execa's options (`cwd`, `input`, ...).
 */
export type RunOptions = Omit<Options, 'env' | 'extendEnv'> & {
  runDir?: string;
  env?: NodeJS.ProcessEnv;
};

const running = new Set<Running>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/**
 * The environment a test gives the CLI: the test's own, less the user's CTXWRAP_* configuration,
 * with NO_COLOR set; `extra` is laid over it (a key set to undefined is removed).
 */
export function cleanEnv(runDir?: string, extra: NodeJS.ProcessEnv = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CTXWRAP_')) env[k] = v;
  if (runDir) env.CTXWRAP_RUN_DIR = runDir;
  env.NO_COLOR = '1';
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

function execaOptions(opts: RunOptions): Options {
  const { runDir, env, ...rest } = opts;
  return {
    reject: false,
    stripFinalNewline: false,
    env: cleanEnv(runDir, env),
    extendEnv: false,
    ...('input' in rest || 'stdin' in rest ? {} : { stdin: 'ignore' }),
    ...rest,
  } as Options;
}

function track(child: Running): Running {
  running.add(child);
  child.then(
    () => running.delete(child),
    () => running.delete(child),
  );
  return child;
}

/** Spawns the built CLI with `args`; never rejects, so tests assert on exit code and output. */
export function ctxwrap(args: string[], opts: RunOptions = {}): Running {
  return track(execa(process.execPath, [BIN, ...args], execaOptions(opts)) as unknown as Running);
}

/** Runs a shell line with /bin/sh (with `ctxwrap` in it: `node ${BIN}`, or on PATH in a sandbox). */
export function sh(line: string, opts: RunOptions = {}): Running {
  return track(execa('/bin/sh', ['-c', line], execaOptions(opts)) as unknown as Running);
}

/** `ctxwrap`, waiting for the end (for tests that read best in order). */
export function ctxwrapSync(args: string[], opts: RunOptions = {}): RanSync {
  return execaSync(process.execPath, [BIN, ...args], {
    timeout: 30_000,
    ...execaOptions(opts),
  } as never) as unknown as RanSync;
}

/** `sh`, waiting for the end. */
export function shSync(line: string, opts: RunOptions = {}): RanSync {
  return execaSync('/bin/sh', ['-c', line], {
    timeout: 30_000,
    ...execaOptions(opts),
  } as never) as unknown as RanSync;
}

/** A sandbox: HOME, a run dir and a bin dir with `ctxwrap` on PATH, all under one temp dir. */
export function sandbox(): { root: string; home: string; runDir: string; env: NodeJS.ProcessEnv } {
  const root = tempDir('ctxwrap-sandbox-');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  const runDir = join(root, 'run');
  mkdirSync(home);
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'ctxwrap'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    CTXWRAP_RUN_DIR: runDir,
    LANG: 'C.UTF-8',
  };
  return { root, home, runDir, env };
}

/** The subcommands `ctxwrap --help` lists. */
export function subcommands(opts: RunOptions = {}): string[] {
  const help = String(ctxwrapSync(['--help'], opts).stdout);
  const section = (help.split(/\nCommands:\n/)[1] ?? '').split(/\n\n/)[0] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] as string).filter((c) => c !== 'help');
}

// ---------------------------------------------------------------------------------------------
// Commands in-process: where a process adds nothing, a test calls src/commands/<name>.ts.

/** What a command gave in-process: its exit code, what it printed, and the CLI's error line. */
export interface Called {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in-process: `run` gets a `print` that collects stdout (pass it as the command's
 * `print`; parse options inside `run`, as the CLI does, so their errors count too). An expected
 * error (CtxwrapError) becomes what the CLI prints for it, `ctxwrap: <message>` and its exit
 * code; any other error fails the test.
 */
export async function inProcess(
  run: (print: (text: string) => void) => number | Promise<number>,
): Promise<Called> {
  let stdout = '';
  const print = (text: string) => {
    stdout += text;
  };
  try {
    const exitCode = await run(print);
    return { exitCode, stdout, stderr: '' };
  } catch (error) {
    if (!(error instanceof CtxwrapError)) throw error;
    return { exitCode: error.exitCode, stdout, stderr: `ctxwrap: ${error.message}\n` };
  }
}

/**
 * `ctxwrap --run-dir DIR search ARGS` in-process: ARGS parsed by the CLI's own fast-path parser,
 * then the search both of the CLI's paths run (runSearch). The worker's environment is the
 * configuration (no CTXWRAP_* in it): a test that sets one spawns the CLI.
 */
export function searchIn(runDir: string, args: string[]): Promise<Called> {
  const parsed = parseFastSearchArgs(['--run-dir', runDir, 'search', ...args]);
  if (!parsed) throw new Error(`searchIn takes what the fast path parses (spawn the CLI): ${args.join(' ')}`);
  const { words, ...flags } = parsed;
  return inProcess((print) => runSearch(words, flags, print));
}

/** `ctxwrap --run-dir DIR read ID [--lines LINES] --max-chars 0` in-process. */
export function readIn(runDir: string, id: string, lines?: string): Promise<Called> {
  return inProcess((print) =>
    readResult({
      runDir,
      id,
      ...(lines ? { lines } : {}),
      maxChars: 0,
      print,
      printBytes: () => true,
      warn: () => {},
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// What a run directory holds, and results made without the CLI.

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

/** Edits a result's metadata (for a note or an old start time). */
export function editMeta(runDir: string, id: string, edit: (meta: Record<string, unknown>) => void): void {
  const path = join(runDir, 'tool_results', `${id}.json`);
  const meta = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  edit(meta);
  writeFileSync(path, JSON.stringify(meta));
}

/** Runs a command under ctxwrap and returns the new result's id. */
export async function stored(runDir: string, command: string[], opts: RunOptions = {}): Promise<string> {
  const ran = await ctxwrap(['--run-dir', runDir, '--', ...command], opts);
  const m = /\[ctxwrap ([a-z0-9-]+_[0-9a-f]{8})\]/.exec(String(ran.stdout));
  if (m) return m[1] as string;
  const list = await ctxwrap(['list', '--json', '--run-dir', runDir]);
  const newest = (JSON.parse(String(list.stdout)) as { id: string }[])[0];
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

/**
 * Resolves when `check` holds, polling; fails after `ms`. The default is for waiting on something
 * to start: at load 27 on 2 cores, a ctxwrap started and stored its first line after more than
 * 10 s (read.test.ts's running result, once). It stays under the e2e project's 60 s per test.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for condition');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Starts `ctxwrap -- wait-for-signal.mjs` in a run directory and waits until it is listed as
 * running with its first output stored; SIGTERM to `child` ends it (exit 0).
 */
export async function startRunning(runDir: string): Promise<{ id: string; child: Running }> {
  const child = ctxwrap(['--run-dir', runDir, '--', process.execPath, script('wait-for-signal.mjs')]);
  let id = '';
  await waitFor(async () => {
    // `ctxwrap list --json`, in-process: polling with a process per look is slow on a loaded machine.
    const listed = await inProcess((print) =>
      listResults({ runDir, json: true, ttlMs: resolveTtl({}), print }),
    );
    const results = JSON.parse(String(listed.stdout) || '[]') as {
      id: string;
      state: string;
      bytes: number;
    }[];
    id = results.find((r) => r.state === 'running' && r.bytes > 0)?.id ?? '';
    return id !== '';
  });
  return { id, child };
}

/** Stores `text` as a result named `name` (through `ctxwrap --name NAME -- cat FILE`), returns its id. */
export async function storeText(runDir: string, name: string, text: string): Promise<string> {
  const file = join(tempDir(), `${name}.txt`);
  writeFileSync(file, text);
  // cat, not a node script: a node start costs about ten times the CPU, and storing is all this does.
  const r = await ctxwrap(['--run-dir', runDir, '--name', name, '--', 'cat', file]);
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

/** The files of the run directory's search index. */
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

// ---------------------------------------------------------------------------------------------
// Processes: a test ends only those it started, by pid or process group, never by name.

/** True when no process `pid` is left (gone, or a zombie waiting to be reaped). */
export function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return !existsSync(`/proc/${pid}`);
  }
}

/** The pids whose parent is `pid` (read from /proc). */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** SIGKILLs a process a test started (or the group it leads, `group`), quietly if it is gone. */
export function killQuietly(pid: number | undefined, group = false): void {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1) return;
  try {
    process.kill(group ? -pid : pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Reads a pid a fixture wrote to `file`, once it is there. */
export function readPid(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}

// ---------------------------------------------------------------------------------------------
// Mounts that hold for root (tmpfs, full or read-only), unmounted after each test.

const mounted: string[] = [];
afterEach(() => {
  for (const dir of mounted.splice(0).reverse()) spawnSync('umount', ['-l', dir]);
});

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
