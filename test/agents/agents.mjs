/**
 * The pinned agent CLIs and how to install them into a cache outside the repository
 * (`$CTXWRAP_AGENTS_CACHE`, default ~/.cache/ctxwrap-agents), with `npm install --prefix`.
 * The install needs the npm registry; a second run reuses the cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const CACHE = process.env.CTXWRAP_AGENTS_CACHE || join(homedir(), '.cache', 'ctxwrap-agents');

export const AGENTS = {
  claude: {
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.332',
    // The package's postinstall copies the native binary over a stub; npm 11 skips install
    // scripts by default, so the harness runs the platform package's binary itself.
    bin: (dir) =>
      join(dir, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude'),
  },
  codex: {
    pkg: '@openai/codex',
    version: '0.169.0',
    bin: (dir) => join(dir, 'node_modules', '.bin', 'codex'),
  },
  gemini: {
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: (dir) => join(dir, 'node_modules', '.bin', 'gemini'),
  },
  opencode: {
    pkg: 'opencode-ai',
    version: '1.18.33',
    bin: (dir) => join(dir, 'node_modules', '.bin', 'opencode'),
  },
};

/** The agent's binary, installed into the cache first when missing. */
export function installAgent(name) {
  const agent = AGENTS[name];
  const dir = join(CACHE, name);
  const bin = agent.bin(dir);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefix', dir, `${agent.pkg}@${agent.version}`],
    {
      stdio: 'inherit',
      timeout: 15 * 60_000,
    },
  );
  if (r.status !== 0 || !existsSync(bin))
    throw new Error(`cannot install ${agent.pkg}@${agent.version} into ${dir}`);
  return bin;
}
