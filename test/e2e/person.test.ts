// A person at the terminal: `ctxwrap open`, help with examples, and shell completion.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ctxwrap, ctxwrapSync, sandbox, shSync, subcommands } from '../support.js';

let box: ReturnType<typeof sandbox>;
beforeEach(() => {
  box = sandbox();
});
/** The subcommands `ctxwrap --help` lists, asked once per file (the list is the same in every sandbox). */
let listed: string[] | undefined;
const allSubcommands = () => {
  listed ??= subcommands({ env: box.env });
  return listed;
};

/** Runs a command and returns the id its summary names (long enough to get a header at a budget of 2,000). */
function storedRun(): { id: string; path: string } {
  const r = shSync(`ctxwrap --budget 2000 -c "printf '\\033[31mred\\033[0m line %s\\n' \\$(seq 1 300)"`, {
    env: box.env,
  });
  const m = /^\[ctxwrap (\S+)\] .* full output: (\S+)$/m.exec(r.stdout);
  expect(m, r.stdout + r.stderr).not.toBeNull();
  return { id: m?.[1] as string, path: m?.[2] as string };
}

/** Runs a shell line under a pseudo-terminal (util-linux `script`), as a person would. */
function onTerminal(line: string, env: NodeJS.ProcessEnv) {
  return shSync(`script -qec ${JSON.stringify(`stty rows 40 cols 100; ${line}`)} /dev/null`, { env });
}

describe('ctxwrap open', () => {
  it('streams the stored output byte for byte when stdout is not a terminal', () => {
    const { id, path } = storedRun();
    const r = ctxwrapSync(['open', id], { env: box.env });
    expect(r).toMatchObject({ exitCode: 0, stdout: readFileSync(path, 'utf8'), stderr: '' });
    expect(r.stdout).toContain('\u001b[31mred\u001b[0m line 150\n');
  });

  it('pages through $PAGER on a terminal, the path passed as one argument', () => {
    const { id, path } = storedRun();
    const r = onTerminal(`ctxwrap open ${id}`, { ...box.env, PAGER: "printf 'paged [%s]\\n'" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.replace(/\r/g, '')).toBe(`paged [${path}]\n`);
  });

  it('pages with less -R when $PAGER is unset', () => {
    const { id } = storedRun();
    const env = { ...box.env, LESS: 'FX', TERM: 'xterm' };
    const r = onTerminal(`stty rows 400; ctxwrap open ${id}`, env);
    expect(r.exitCode).toBe(0);
    const screen = r.stdout.replace(/\r/g, '');
    // less -R passes the colours through (and resets them at each line end).
    expect(screen).toMatch(/\u001b\[31mred\u001b\[0m line 1(\u001b\[m)?\n/);
    expect(screen).toMatch(/line 300(\u001b\[m)?\n/);
  });

  it.each([
    [['open', '../../etc/passwd'], 2, /^ctxwrap: invalid result id '\.\.\/\.\.\/etc\/passwd'/],
    [['open', 'npm_00000000'], 1, /^ctxwrap: no result 'npm_00000000' in /],
  ])('refuses %j', (args, code, message) => {
    const r = ctxwrapSync(args, { env: box.env });
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

describe('help', () => {
  // One process per subcommand, side by side: an explicit timeout for a loaded machine.
  it('shows real examples at the top level and for every subcommand', { timeout: 120_000 }, async () => {
    expect(ctxwrapSync(['--help'], { env: box.env }).stdout).toMatch(
      /\nExamples:\n {2}ctxwrap -- npm test\n/,
    );
    const names = allSubcommands();
    expect(names).toEqual(
      expect.arrayContaining(['run', 'show', 'prompt', 'hook', 'init', 'open', 'completion']),
    );
    const helps = await Promise.all(names.map((name) => ctxwrap([name, '--help'], { env: box.env })));
    for (const [k, name] of names.entries()) {
      const help = helps[k] as Awaited<ReturnType<typeof ctxwrap>>;
      expect({ name, code: help.exitCode }).toEqual({ name, code: 0 });
      expect(help.stdout, name).toMatch(/\nExamples?\b[^\n]*:\n/);
      expect(help.stdout, name).toMatch(
        new RegExp(`\\n {2}(.*\\| )?(\\S+=\\S+ )?ctxwrap ${name === 'run' ? '' : name}`),
      );
    }
  });
});

/** What bash completes for a command line (the cursor at its end), with the real script loaded. */
let bashScript: string | undefined;
function bashComplete(line: string, env: NodeJS.ProcessEnv): string[] {
  const script = join(box.root, 'ctxwrap.bash');
  bashScript ??= ctxwrapSync(['completion', 'bash'], { env }).stdout; // the same script every time
  writeFileSync(script, bashScript);
  const words = line.split(' ');
  const program = [
    `source ${JSON.stringify(script)}`,
    `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE=${JSON.stringify(line)}`,
    `COMP_POINT=${line.length}`,
    '_ctxwrap',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash syntax
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const file = join(box.root, 'complete.bash');
  writeFileSync(file, program);
  const r = shSync(`bash ${JSON.stringify(file)}`, { env });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('ctxwrap completion', () => {
  it('completes subcommands, options, fixed values and result ids in bash', () => {
    mkdirSync(join(box.runDir, 'tool_results'), { recursive: true });
    for (const f of ['npm_3f2a9c1b.json', 'npm_3f2a9c1b.fp.json', 'npm_3f2a9c1b.txt', 'make_00aa11bb.json']) {
      writeFileSync(join(box.runDir, 'tool_results', f), '');
    }
    const all = allSubcommands();
    expect(bashComplete('ctxwrap ', box.env)).toEqual(expect.arrayContaining(all));
    expect(bashComplete('ctxwrap co', box.env)).toEqual(['completion']);
    expect(bashComplete('ctxwrap completion ', box.env)).toEqual(['bash', 'zsh']);
    expect(bashComplete('ctxwrap init --', box.env)).toEqual(['--global', '--uninstall', '--help']);
    expect(bashComplete('ctxwrap prompt --format ', box.env)).toEqual(['markdown', 'plain']);
    expect(bashComplete('ctxwrap show ', box.env).sort()).toEqual(['make_00aa11bb', 'npm_3f2a9c1b']);
    expect(bashComplete('ctxwrap --run-dir /tmp open n', box.env)).toEqual([]);
    expect(bashComplete(`ctxwrap --run-dir ${box.runDir} open n`, { ...box.env })).toEqual(['npm_3f2a9c1b']);
    expect(bashComplete('ctxwrap -- bas', box.env)).toContain('bash');
    expect(bashComplete('ctxwrap --bud', box.env)).toEqual(['--budget']);
  });

  it('runs no shell code found in a result file name (issue 20 #12)', () => {
    const results = join(box.runDir, 'tool_results');
    mkdirSync(results, { recursive: true });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a file name that is shell code
    for (const f of ['$(touch${IFS}PWNED).json', '`touch${IFS}PWNED2`.json', 'npm_3f2a9c1b.json'])
      writeFileSync(join(results, f), '');
    const env = { ...box.env };
    expect(bashComplete(`ctxwrap --run-dir ${box.runDir} show `, env)).toEqual(['npm_3f2a9c1b']);
    expect(bashComplete(`ctxwrap --run-dir ${box.runDir} show $`, env)).toEqual([]);
    for (const dir of [box.root, results, process.cwd()]) {
      expect(existsSync(join(dir, 'PWNED')), dir).toBe(false);
      expect(existsSync(join(dir, 'PWNED2')), dir).toBe(false);
    }
  });

  it('prints a zsh script that lists every subcommand and option, with ids and fixed values', () => {
    const r = ctxwrapSync(['completion', 'zsh'], { env: box.env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('#compdef ctxwrap\n')).toBe(true);
    for (const name of allSubcommands()) expect(r.stdout).toMatch(new RegExp(`^ {4}'${name}:`, 'm'));
    expect(r.stdout).toContain("'1:result id:_ctxwrap_ids'");
    expect(r.stdout).toContain("'1:shell:(bash zsh)'");
    expect(r.stdout).toContain("'--format[markdown or plain]:format:(markdown plain)'");
    expect(r.stdout).toContain(
      "'--run-dir[where results are stored (env CTXWRAP_RUN_DIR)]:dir:_directories'",
    );
    expect(r.stdout).toMatch(/compdef _ctxwrap ctxwrap\nfi\n$/);
  });

  it('refuses a shell it does not know', () => {
    const r = ctxwrapSync(['completion', 'fish'], { env: box.env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^ctxwrap: .*'fish'.*bash, zsh/);
  });
});
