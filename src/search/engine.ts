/**
 * The search engine a scan runs as a child process: ripgrep when its binary is installed (the
 * @vscode/ripgrep dependency ships it inside a per-platform optional package, no download at
 * install), else GNU grep. Both are asked for the same matches, `name:line:offset:match` each
 * (-aobnHF: text, only the match, its byte offset and line number, file name, fixed strings):
 * grep for each word in any ASCII case (-i, then the case forms are kept), ripgrep for the case
 * forms themselves (see scan.ts); ripgrep prints each name once, on a line before its matches
 * (--heading). One parser reads either (engine-output.ts). ripgrep takes a third of grep's time on rare and absent words.
 * When neither can be run, the caller scans in JS (scan.ts's scanFile): same results.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Engine {
  name: 'rg' | 'grep';
  /** The executable: a path for rg, a name found on PATH for grep. */
  command: string;
}

/** The same options for both: see the module's comment; the files come after `--`. */
const ARGS: Record<Engine['name'], string[]> = {
  // -j2: two threads in one process (one fork of the search's node, not two: a fork of node cost
  // 5 ms of CPU); each output's matches come together under its name, outputs in any order (the
  // parser finds each by its name; grep's come in the order given). No -i: the patterns are the
  // case forms; --no-unicode: no Unicode case or class rules; -E none: no transcoding of a UTF-16 BOM;
  // --no-config, --no-ignore: nothing from the user's rg set-up or ignore files.
  // --heading: each output's name once, before its matches (engine-output.ts).
  rg: [
    '-j2',
    '-aobnHF',
    '--heading',
    '--no-unicode',
    '-E',
    'none',
    '--no-config',
    '--no-ignore',
    '--color=never',
  ],
  grep: ['-aobnHFi'],
};

let ripgrep: string | null | undefined;

/** The path of the ripgrep binary installed with ctxwrap, or undefined when there is none. */
export function ripgrepPath(): string | undefined {
  if (ripgrep === undefined) {
    const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
    const rel = `@vscode/ripgrep-${process.platform}-${process.arch}/bin/${exe}`;
    try {
      ripgrep = installedBeside(rel) ?? require.resolve(rel);
    } catch {
      ripgrep = null;
    }
  }
  return ripgrep ?? undefined;
}

/**
 * `rel` where npm puts it for a bundle in dist/ (CommonJS, where __dirname is known): in
 * ctxwrap's own node_modules, or beside ctxwrap in the node_modules that holds it. Asking the
 * module resolver (require.resolve, cold in a new process) cost about 3 ms of every search.
 */
function installedBeside(rel: string): string | undefined {
  if (typeof __dirname !== 'string') return undefined;
  for (const base of [join(__dirname, '..', 'node_modules'), join(__dirname, '..', '..')]) {
    const path = join(base, rel);
    if (existsSync(path)) return path;
  }
  return undefined;
}

/** The engines to try, best first. */
export function engines(): Engine[] {
  const rg = ripgrepPath();
  return [...(rg ? [{ name: 'rg' as const, command: rg }] : []), { name: 'grep', command: 'grep' }];
}

/**
 * Starts `engine` looking for `patterns` (fixed strings: grep matches them in any ASCII case,
 * ripgrep as given) in `files` (relative to `cwd`), its stdout to the file `out` or on a pipe.
 * Throws when it cannot be started synchronously; an executable that is missing shows as the
 * child's 'error' event.
 */
export function spawnEngine(
  engine: Engine,
  patterns: string[],
  files: string[],
  cwd: string,
  signal?: AbortSignal,
  /** A file to write the matches to (else a pipe, `stdout`). */
  out?: number,
): ChildProcess {
  return spawn(
    engine.command,
    [...ARGS[engine.name], ...patterns.flatMap((p) => ['-e', p]), '--', ...files],
    {
      cwd,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', out ?? 'pipe', 'ignore'],
      ...(signal ? { signal } : {}),
    },
  );
}
