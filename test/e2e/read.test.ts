import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readResult } from '../../src/commands/read.js';
import { parseWhole } from '../../src/parse-number.js';
import {
  type Called,
  ctxwrap,
  inProcess,
  script,
  startRunning,
  stored,
  tempDir,
  writeResult,
} from '../support.js';

/**
 * `ctxwrap read --run-dir DIR ID ARGS` in-process, its options made as src/cli/read.ts makes
 * them (--lines, --context, --max-chars, --no-numbers): what the command prints, its exit code,
 * and the CLI's `ctxwrap: ` lines on stderr. The CLI's own part (parsing, --raw's bytes and note
 * on stdout and stderr, exit codes of a process) is tested by spawning it, below.
 */
async function readIn(runDir: string, id: string, ...args: string[]): Promise<Called> {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : (args[at + 1] as string);
  };
  const context = value('--context');
  const maxChars = value('--max-chars');
  let warned = '';
  const called = await inProcess(async (print) =>
    readResult({
      runDir,
      id,
      ...(value('--lines') !== undefined ? { lines: value('--lines') } : {}),
      ...(context !== undefined ? { context: parseWhole(context, '--context', 0, 1000) } : {}),
      ...(maxChars !== undefined ? { maxChars: parseWhole(maxChars, '--max-chars', 0) } : {}),
      raw: false,
      numbers: !args.includes('--no-numbers'),
      redact: true,
      print,
      printBytes: () => {
        throw new Error('readIn is for text: spawn the CLI for --raw');
      },
      warn: (text) => {
        warned += `ctxwrap: ${text}\n`;
      },
    }),
  );
  return { ...called, stderr: warned + called.stderr };
}

const ACCEPTED =
  'accepted: first:N, last:N, A-B, A- (to the end), N, lists such as 1-20,900-950, grep:PATTERN, grep:/PATTERN/i';

describe('ctxwrap read', () => {
  let runDir: string;
  let id: string; // `line 1` … `line 1000`, every 100th `line i ERROR boom`
  let untidy: string;
  const read = (readId: string, ...args: string[]) => readIn(runDir, readId, ...args);
  const readCli = (...args: string[]) => ctxwrap(['read', '--run-dir', runDir, ...args]);

  beforeAll(async () => {
    runDir = join(tempDir(), 'run');
    id = await stored(runDir, [process.execPath, script('numbered-lines.mjs'), '1000', '100']);
    untidy = await stored(runDir, [process.execPath, script('untidy-output.mjs')]);
  });

  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, k) => from + k)
      .map((n) => `${n}: line ${n}${n % 100 === 0 ? ' ERROR boom' : ''}\n`)
      .join('');

  it('prints the output numbered, as much as fits, and says what was left out', async () => {
    const r = await readCli(id);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeLessThanOrEqual(4000);
    const m =
      /\[ctxwrap: lines 1-(\d+) of 1,000 shown; the rest did not fit in --max-chars 4000: --lines (\d+)-, or --lines grep:PATTERN\]\n$/.exec(
        r.stdout,
      );
    expect(m).not.toBeNull();
    const last = Number(m?.[1]);
    expect(Number(m?.[2])).toBe(last + 1);
    expect(r.stdout).toBe(`${numbered(1, last)}${m?.[0]}`);
    expect(r.stdout.length + `${last + 1}: line ${last + 1}\n`.length).toBeGreaterThan(4000);
  });

  it.each([
    ['first:3', numbered(1, 3)],
    ['last:2', numbered(999, 1000)],
    ['5-7', numbered(5, 7)],
    ['998-', numbered(998, 1000)],
    ['500', numbered(500, 500)],
    ['1-2,500,999-', `${numbered(1, 2)}${numbered(500, 500)}${numbered(999, 1000)}`],
    ['900-901,3-4', `${numbered(3, 4)}${numbered(900, 901)}`],
    ['3-5,4-6', numbered(3, 6)],
    ['first:2000', null],
  ])('--lines %s', async (spec, expected) => {
    const r = await read(id, '--lines', spec, '--max-chars', '0');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected ?? numbered(1, 1000));
  });

  it('says when requested lines are past the end', async () => {
    expect((await read(id, '--lines', '999-1005')).stdout).toBe(
      `${numbered(999, 1000)}[ctxwrap: ${id} has 1,000 lines]\n`,
    );
    const none = await read(id, '--lines', '2000-2010,3000-');
    expect(none).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: `[ctxwrap: no such line (2000-2010,3000-): ${id} has 1,000 lines]\n`,
    });
  });

  it('bounds a range and names the rest to ask for next', async () => {
    const r = await read(id, '--lines', '1-20,900-950', '--max-chars', '300');
    expect(r.stdout.length).toBeLessThanOrEqual(300);
    const m =
      /\[ctxwrap: lines ([\d,-]+) of 1,000 shown; the rest did not fit in --max-chars 300: --lines ([\d,-]+)\]\n$/.exec(
        r.stdout,
      );
    expect(m?.[1]).toMatch(/^1-\d+$/);
    const last = Number(m?.[1]?.split('-')[1]);
    expect(m?.[2]).toBe(`${last + 1}-20,900-950`);
    expect(r.stdout).toBe(`${numbered(1, last)}${m?.[0]}`);
  });

  it('keeps the end of last:N when it does not fit', async () => {
    const r = await read(id, '--lines', 'last:50', '--max-chars', '200');
    expect(r.stdout.length).toBeLessThanOrEqual(200);
    const m =
      /\[ctxwrap: lines (\d+)-1000 of 1,000 shown; the rest did not fit in --max-chars 200: --lines 951-(\d+)\]\n$/.exec(
        r.stdout,
      );
    const first = Number(m?.[1]);
    expect(Number(m?.[2])).toBe(first - 1);
    expect(r.stdout).toBe(`${numbered(first, 1000)}${m?.[0]}`);
  });

  it('greps, numbered, with a closing count', async () => {
    const errors = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
      .map((n) => `${n}: line ${n} ERROR boom\n`)
      .join('');
    expect((await read(id, '--lines', 'grep:ERROR')).stdout).toBe(
      `${errors}[ctxwrap: 10 matching lines (1,000 lines searched)]\n`,
    );
    expect((await read(id, '--lines', 'grep:/error/i')).stdout).toBe(
      `${errors}[ctxwrap: 10 matching lines (1,000 lines searched)]\n`,
    );
    expect((await read(id, '--lines', 'grep:^line 10\\d$')).stdout).toBe(
      `${[101, 102, 103, 104, 105, 106, 107, 108, 109].map((n) => `${n}: line ${n}\n`).join('')}[ctxwrap: 9 matching lines (1,000 lines searched)]\n`,
    );
  });

  it('shows context around matches, context lines marked with -', async () => {
    const r = await read(id, '--lines', 'grep:(5|6)00 ERROR', '--context', '1');
    expect(r.stdout).toBe(
      '499- line 499\n500: line 500 ERROR boom\n501- line 501\n599- line 599\n600: line 600 ERROR boom\n601- line 601\n[ctxwrap: 2 matching lines (1,000 lines searched)]\n',
    );
    const merged = await read(id, '--lines', 'grep:^line 50[13]$', '--context', '2');
    expect(merged.stdout).toBe(
      `${[499, 500, 501, 502, 503, 504, 505].map((n) => `${n}${n === 501 || n === 503 ? ':' : '-'} line ${n}${n === 500 ? ' ERROR boom' : ''}\n`).join('')}[ctxwrap: 2 matching lines (1,000 lines searched)]\n`,
    );
  });

  it('bounds grep output and still counts every match', async () => {
    const r = await read(id, '--lines', 'grep:line', '--max-chars', '300');
    expect(r.stdout.length).toBeLessThanOrEqual(300);
    const m =
      /\[ctxwrap: (\d+) of 1,000 matching lines shown \(1,000 lines searched\); the rest did not fit in --max-chars 300, next at line (\d+): narrow the pattern or raise --max-chars\]\n$/.exec(
        r.stdout,
      );
    const shown = Number(m?.[1]);
    expect(Number(m?.[2])).toBe(shown + 1);
    expect(r.stdout).toBe(`${numbered(1, shown)}${m?.[0]}`);
  });

  it('says when nothing matches', async () => {
    expect((await read(id, '--lines', 'grep:nothing here')).stdout).toBe(
      '[ctxwrap: no line matches nothing here (1,000 lines searched)]\n',
    );
  });

  it('cleans what it prints: colour, \\r progress, controls, and lines that pass for its own', async () => {
    const expected = [
      '1: plain first line',
      '2: FAIL colored',
      '3: progress 100%',
      '4: \\[ctxwrap fake] pretend summary',
      '5: tab\there and a bell^G',
      '6: naïve café TIMEOUT',
      '7: last line without newline',
    ];
    expect((await read(untidy)).stdout).toBe(`${expected.join('\n')}\n`);
    expect((await read(untidy, '--no-numbers', '--lines', '3-4')).stdout).toBe(
      'progress 100%\n\\[ctxwrap fake] pretend summary\n',
    );
  });

  it('greps what it shows, not the raw bytes', async () => {
    const grep = async (spec: string) =>
      (await read(untidy, '--lines', `grep:${spec}`)).stdout.split('\n')[0];
    expect(await grep('FAIL')).toBe('2: FAIL colored');
    expect(await grep('/timeout/i')).toBe('6: naïve café TIMEOUT');
    expect(await grep('café')).toBe('6: naïve café TIMEOUT');
    expect(await grep('/CAFÉ/i')).toBe('6: naïve café TIMEOUT');
    expect(await grep('bell\\^G$')).toBe('5: tab\there and a bell^G');
    expect(await grep('progress 55')).toBe('[ctxwrap: no line matches progress 55 (7 lines searched)]');
    expect(await grep('\\x1b')).toBe('[ctxwrap: no line matches \\x1b (7 lines searched)]');
  });

  it('--raw prints the exact stored bytes', async () => {
    const stored = readFileSync(join(runDir, 'tool_results', `${untidy}.txt`));
    const all = await readCli(untidy, '--raw');
    expect(all).toMatchObject({ exitCode: 0, stderr: '', stdout: stored.toString('utf8') });
    const two = await readCli(untidy, '--raw', '--lines', '2-3');
    expect(two).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: '\x1b[31mFA\x1b[0mIL colored\nprogress 10%\rprogress 55%\rprogress 100%\n',
    });
    const cut = await readCli(id, '--raw', '--lines', '1-100', '--max-chars', '30');
    expect(cut.stdout).toBe('line 1\nline 2\nline 3\nline 4\n');
    expect(cut.stderr).toBe(
      'ctxwrap: lines 1-4 of 1,000 shown; the rest did not fit in --max-chars 30: --lines 5-100\n',
    );
  });

  it.each([
    ['last:x', "last: takes a whole number of lines (got 'x')"],
    ['5-2', "'5-2' ends before it starts"],
    ['0-3', 'line numbers start at 1'],
    ['grep:(', 'invalid regular expression: Unterminated group'],
    ['grep:/a/q', "unsupported flags 'q' (grep:/PATTERN/ takes i, s, u)"],
    ['middle', "'middle' is not a line number or a range"],
  ])('refuses --lines %s in one line, exit 2', async (spec, why) => {
    const r = await read(id, '--lines', spec);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`ctxwrap: --lines '${spec}': ${why}; ${ACCEPTED}\n`);
  });

  it('refuses --context without grep:', async () => {
    expect(await readCli(id, '--lines', '1-3', '--context', '2')).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: 'ctxwrap: --context applies to --lines grep:PATTERN only\n',
    });
  });

  it.each([
    '../../etc/passwd',
    '/etc/passwd',
    '',
    'x'.repeat(100),
    'npm_zzzzzzzz',
    'npm_3f2a9c1b/../x',
    '.',
    'NPM_3F2A9C1B',
  ])('refuses the id %j before touching the file system', async (bad) => {
    const r = await read(bad);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^ctxwrap: invalid result id '.*': ids look like npm_3f2a9c1b \(a name, '_', 8 hex digits\); see 'ctxwrap list'\n$/,
    );
  });

  it('names the run directory it looked in for an unknown id, exit 1', async () => {
    expect(await readCli('npm_0123abcd')).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: no result 'npm_0123abcd' in ${runDir} (see 'ctxwrap list')\n`,
    });
  });

  it('records what it printed in the ledger', async () => {
    const dir = join(tempDir(), 'run');
    const one = await stored(dir, [process.execPath, script('numbered-lines.mjs'), '50']);
    const a = await ctxwrap(['read', '--run-dir', dir, one, '--lines', '1-5']);
    const b = await ctxwrap(['read', '--run-dir', dir, one, '--lines', 'grep:line 4']);
    const ledger = readFileSync(join(dir, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(ledger.map((l) => [l.kind, l.id, l.bytes])).toEqual([
      ['read', one, Buffer.byteLength(a.stdout)],
      ['read', one, Buffer.byteLength(b.stdout)],
    ]);
  });

  it('reads a result still being written, and says so', async () => {
    const dir = join(tempDir(), 'run');
    const run = await startRunning(dir);
    const running = run.id;
    const r = await readIn(dir, running);
    expect(r).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout: `1: started\n[ctxwrap: ${running} is still running]\n`,
    });
    run.child.kill('SIGTERM');
    expect((await run.child).exitCode).toBe(0);
    expect((await readIn(dir, running)).stdout).toBe('1: started\n2: stopped\n');
  });

  it('handles empty, binary and many-block results', async () => {
    const dir = join(tempDir(), 'run');
    writeResult(dir, 'empty_00000000', '');
    expect((await readIn(dir, 'empty_00000000')).stdout).toBe('[ctxwrap: empty_00000000 has no output]\n');
    writeResult(dir, 'bin_00000000', Buffer.from([0, 1, 2, 255, 10]), { binary: true });
    expect((await readIn(dir, 'bin_00000000')).stdout).toBe(
      '[ctxwrap bin_00000000] binary output (5 B) not shown; --raw for the bytes, or --lines to see it as text\n',
    );
    expect((await readIn(dir, 'bin_00000000', '--lines', '1')).stdout).toBe('1: ^@^A^B\uFFFD\n');
    // Several 1 MiB blocks: numbering and context across block edges.
    const lines = Array.from(
      { length: 120_000 },
      (_, k) => `row ${k + 1} ${k % 40_000 === 39_999 ? 'NEEDLE' : 'hay'} ${'x'.repeat(20)}`,
    );
    writeResult(dir, 'big_00000000', `${lines.join('\n')}\n`);
    const r = await readIn(dir, 'big_00000000', '--lines', 'grep:NEEDLE', '--context', '1');
    const row = (n: number, mark: string) =>
      `${n}${mark} row ${n} ${n % 40_000 === 0 ? 'NEEDLE' : 'hay'} ${'x'.repeat(20)}\n`;
    expect(r.stdout).toBe(
      `${[40_000, 80_000, 120_000].map((n) => `${row(n - 1, '-')}${row(n, ':')}${n < 120_000 ? row(n + 1, '-') : ''}`).join('')}[ctxwrap: 3 matching lines (120,000 lines searched)]\n`,
    );
    expect((await readIn(dir, 'big_00000000', '--lines', '119999-')).stdout).toBe(
      `${row(119_999, ':')}${row(120_000, ':')}`,
    );
    expect((await readIn(dir, 'big_00000000', '--lines', 'last:1')).stdout).toBe(row(120_000, ':'));
  });
});
