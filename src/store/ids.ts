import { closeSync, openSync, readSync } from 'node:fs';
import { CtxwrapError } from '../errors.js';

/** The shape of every id: a slug of the command's name, `_`, and 8 random hex digits. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,23}_[0-9a-f]{8}$/;

/** A short, typeable slug from a command name: `/usr/bin/npm` → `npm`, `Apt-Get` → `apt-get`. */
export function slugOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/\.(?:exe|cmd|bat|sh|js|mjs|py)$/, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return slug === '' ? 'out' : slug;
}

/** Launchers that run the next word (after their own options): `time make` is `make`. */
const PREFIX = new Set(['env', 'time', 'nice', 'nohup', 'exec', 'command', 'sudo', 'npx', 'bunx', 'pnpx']);
/** Launchers with a subcommand that runs the next word: `uv run pytest` is `pytest`. */
const RUNNERS: Record<string, readonly string[]> = {
  pnpm: ['dlx', 'exec'],
  yarn: ['dlx', 'exec'],
  npm: ['exec', 'x'],
  bun: ['x'],
  uv: ['run'],
  uvx: [],
  poetry: ['run'],
  pipenv: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  bundle: ['exec'],
};
/** Options of a launcher that take a value (`nice -n 5`, `env -u NAME`, `npx -p pkg`). */
const WITH_VALUE: Record<string, readonly string[]> = {
  env: ['-u', '-C', '--chdir', '-S'],
  nice: ['-n'],
  sudo: ['-u', '-g', '-C'],
  npx: ['-p', '--package'],
  uv: ['--with', '--from', '--python', '--directory', '--project'],
  uvx: ['--with', '--from', '--python'],
};
const PYTHON = /^python(?:\d+(?:\.\d+)*)?$/;

/**
 * The tool a command runs, past the launchers in front of it: `npx tsc`, `pnpm dlx tsc`,
 * `env A=1 tsc`, `time tsc` are `tsc`; `python3 -m pip`, `uv run pytest`, `poetry run pytest`,
 * `bundle exec rspec` are `pip`, `pytest`, `rspec`. A version (`tsc@5.4`) is dropped; a word
 * the launcher does not run (`python3 script.py`, `npm test`) names the command as it is.
 */
export function toolName(words: readonly string[]): string {
  let i = 0;
  const base = (w: string) => w.split(/[\\/]/).pop() ?? w;
  const skipOptions = (launcher = '') => {
    const valued = WITH_VALUE[launcher] ?? [];
    while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) {
      if (words[i] === '--') {
        i++;
        return;
      }
      i += valued.includes(words[i]!) ? 2 : 1;
    }
  };
  skipOptions();
  let launcher = '';
  for (let hops = 0; hops < 8 && i < words.length; hops++) {
    const name = base(words[i]!);
    launcher = name;
    const runner = RUNNERS[name];
    if (PREFIX.has(name)) i++;
    else if (runner && (runner.length === 0 || runner.includes(words[i + 1] ?? '')))
      i += runner.length === 0 ? 1 : 2;
    else if (PYTHON.test(name)) {
      let j = i + 1;
      while (j < words.length && words[j]!.startsWith('-') && words[j] !== '-m') j++;
      if (words[j] !== '-m' || j + 1 >= words.length) break;
      i = j + 1;
      break;
    } else break;
    skipOptions(launcher);
  }
  const word = (i < words.length ? words[i] : words[0]) ?? '';
  // `tsc@5.4` and `@scope/tool@1` lose their version; `@scope/tool` is named `tool` by slugOf.
  return word.replace(/(.)@[^/]*$/, '$1');
}

/** A new id for a result: `npm_3f2a9c1b`. */
export function newId(name: string): string {
  return `${slugOf(name)}_${randomHex4()}`;
}

/**
 * Four random bytes as hex, from /dev/urandom: node:crypto would load 36 modules for them, on the
 * path every wrapped command takes. Where there is no /dev/urandom, Web Crypto gives them.
 */
function randomHex4(): string {
  const bytes = Buffer.alloc(4);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, 4, null) === 4) return bytes.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    /* no /dev/urandom here */
  }
  globalThis.crypto.getRandomValues(bytes);
  return bytes.toString('hex');
}

/**
 * Checks an id given by a user before it touches the file system: only the id shape is
 * accepted, so no path, `..`, empty or overlong id can reach a file outside the run directory.
 */
export function validateId(id: string): string {
  if (ID_PATTERN.test(id)) return id;
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  throw new CtxwrapError(
    `invalid result id '${shown.replace(/[^\x20-\x7e]/g, '?')}': ids look like npm_3f2a9c1b (a name, '_', 8 hex digits); see 'ctxwrap list'`,
  );
}
