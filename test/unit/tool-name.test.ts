import { describe, expect, it } from 'vitest';
import { slugOf, toolName } from '../../src/store/ids.js';

const named = (command: string) => slugOf(toolName(command.split(' ')));

describe('toolName: a result is named after the tool, not its launcher', () => {
  it.each([
    ['npx tsc --noEmit', 'tsc'],
    ['npx --yes tsc@5.4.2 -p .', 'tsc'],
    ['npx -p typescript tsc', 'tsc'],
    ['npx @biomejs/biome check', 'biome'],
    ['pnpm dlx tsc', 'tsc'],
    ['pnpm exec vitest run', 'vitest'],
    ['npm exec -- eslint .', 'eslint'],
    ['python -m pytest -x', 'pytest'],
    ['python3 -m pip install requests', 'pip'],
    ['python3.11 -u -m pytest', 'pytest'],
    ['uv run pytest', 'pytest'],
    ['uv run python -m pytest', 'pytest'],
    ['poetry run pytest tests', 'pytest'],
    ['bundle exec rspec', 'rspec'],
    ['env A=1 B=2 tsc', 'tsc'],
    ['env -u HOME make', 'make'],
    ['time make -j4', 'make'],
    ['time -p npx tsc', 'tsc'],
    ['CI=1 npm test', 'npm'],
    ['/usr/bin/time cargo build', 'cargo'],
  ])('%s is %s', (command, name) => expect(named(command)).toBe(name));

  it.each([
    ['npm test', 'npm'],
    ['python3 script.py', 'python3'],
    ['pnpm install', 'pnpm'],
    ['uv pip install x', 'uv'],
    ['time', 'time'],
    ['npx', 'npx'],
  ])('%s stays %s (the launcher runs no other tool)', (command, name) => expect(named(command)).toBe(name));
});
