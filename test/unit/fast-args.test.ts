// The fast path parses the simple forms of `ctxwrap run` without commander; wherever it accepts
// a command line, commander must read the same command and the same options from it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/command-names.js';
import { parseFastArgs } from '../../src/cli/fast-args.js';
import { closestName } from '../../src/cli/suggest.js';
import { buildProgram } from '../../src/cli.js';

type Parsed = { args: string[]; opts: Record<string, unknown> } | { subcommand: string } | { error: string };

/** What commander makes of `ctxwrap <words>`: the run it would start, another command, or an error. */
async function commanderReads(words: string[]): Promise<Parsed> {
  let parsed: Parsed | undefined;
  const program = buildProgram(() => {});
  for (const cmd of program.commands) {
    cmd.exitOverride();
    cmd.action((...params: unknown[]) => {
      if (cmd.name() !== 'run') {
        parsed = { subcommand: cmd.name() };
        return;
      }
      const [args, opts] = params as [string[], Record<string, unknown>];
      parsed = { args, opts: { ...opts, runDir: opts.runDir ?? program.opts().runDir } };
    });
  }
  try {
    await program.parseAsync(['node', 'ctxwrap', ...words]);
  } catch (error) {
    return { error: (error as Error).message };
  }
  return parsed ?? { error: 'nothing ran' };
}

const normal = (opts: Record<string, unknown>) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(opts)) if (v !== undefined) out[k] = v;
  out.redact = opts.redact !== false;
  out.tee = opts.tee === true;
  return out;
};

async function expectSameAsCommander(words: string[]) {
  const fast = parseFastArgs(words);
  if (fast === undefined) return false;
  const slow = await commanderReads(words);
  expect(slow).toHaveProperty('args');
  const run = slow as { args: string[]; opts: Record<string, unknown> };
  expect({ args: fast.args, opts: normal(fast.opts as Record<string, unknown>) }).toEqual({
    args: run.args,
    opts: normal(run.opts),
  });
  return true;
}

describe('parseFastArgs', () => {
  it.each([
    [['--', 'true'], true],
    [['-c', 'echo hi'], true],
    [['--shell', 'bash', '-c', 'npm test'], true],
    [['--run-dir', '/r', '--budget', '300', '--tee', '--no-redact', '--', 'ls', '-la'], true],
    [['--timeout', '5s', 'make', '--budget', '9'], true],
    [['--name', '--', '--', 'x'], true],
    [['-'], true],
    [['--', '-'], true],
    [['--', 'search', 'x'], false],
    [['list'], false],
    [['help'], false],
    [['--help'], false],
    [['-V'], false],
    [['--budget=300', '--', 'x'], false],
    [['-cx'], false],
    [['--budget'], false],
    [[], false],
    [['run', '--', 'x'], false],
    [['--budget', '300', '--', 'ls', '--help'], false],
    [['ls', '-h'], false],
  ])('%j: fast %s, as commander reads it', async (words, fast) => {
    expect(await expectSameAsCommander(words)).toBe(fast);
  });

  it('reads what commander reads, on any mix of run options, subcommands and words', async () => {
    const word = fc.constantFrom(
      '--',
      '-',
      '-c',
      '--command',
      '--shell',
      '--run-dir',
      '--name',
      '--budget',
      '--timeout',
      '--tee',
      '--no-redact',
      '--tail-ratio',
      '--inline-threshold',
      '--json',
      '-h',
      'list',
      'search',
      'help',
      'run',
      'echo',
      'x y',
      '300',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 7 }), async (words) => {
        await expectSameAsCommander(words);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the subcommand names', () => {
  it('are the program’s, so that a first word among them goes to commander', () => {
    expect(buildProgram(() => {}).commands.map((c) => c.name())).toEqual([...COMMAND_NAMES]);
  });

  it.each([
    ['serach', 'search'],
    ['lsit', 'list'],
    ['stat', 'stats'],
    ['clena', 'clean'],
    ['Show', 'show'],
    ['comp', undefined],
    ['ls', undefined],
    ['make', undefined],
    ['search', undefined],
  ])('%s is a typo of %s', (word, name) => expect(closestName(word, COMMAND_NAMES)).toBe(name));
});
