import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ctxwrap, filler, storeText, tempDir } from '../support.js';

// `ctxwrap search` on pipes takes a path without commander (src/cli/fast-search.ts); a form it
// does not take (`--opt=value`, help, no words) and a terminal go through commander. Whichever
// path a search takes, it prints the same.
const lines = (...parts: (string | string[])[]) => `${parts.flat().join('\n')}\n`;

describe('ctxwrap search, with and without commander', () => {
  let runDir: string;
  const ids: string[] = [];
  beforeAll(async () => {
    runDir = join(tempDir(), 'run');
    // More than 8 results: the scan splits them between two grep processes.
    for (let i = 0; i < 10; i++)
      ids.push(
        await storeText(
          runDir,
          `svc${i}`,
          lines(filler(20 + i), `error: connection refused by postgres-${i} at 10.0.0.${i}:5432`, filler(10)),
        ),
      );
  }, 60_000);

  const search = (args: string[]) => ctxwrap(args, { runDir: join(tempDir(), 'elsewhere') });

  it('prints the same hits, text and JSON, whatever the form of the options', async () => {
    const pairs: [string[], string[]][] = [
      [
        ['search', '--run-dir', runDir, '--limit', '3', '--max-chars', '3000', 'connection', 'refused'],
        ['search', `--run-dir=${runDir}`, '--limit=3', '--max-chars=3000', 'connection', 'refused'],
      ],
      [
        ['--run-dir', runDir, 'search', 'postgres-7', '--json'],
        [`--run-dir=${runDir}`, 'search', 'postgres-7', '--json'],
      ],
      [
        ['search', 'refused', '--run-dir', runDir, '--in', 'svc1*', '--no-redact'],
        ['search', 'refused', `--run-dir=${runDir}`, '--in=svc1*', '--no-redact'],
      ],
      [
        ['search', '--run-dir', runDir, '--', '-x', 'refused'],
        ['search', `--run-dir=${runDir}`, '--', '-x', 'refused'],
      ],
    ];
    for (const [fast, commander] of pairs) {
      const [a, b] = await Promise.all([search(fast), search(commander)]);
      expect(a.stderr, fast.join(' ')).toBe('');
      expect(a.exitCode, fast.join(' ')).toBe(0);
      expect(a.stdout, fast.join(' ')).toBe(b.stdout);
      expect(a.exitCode).toBe(b.exitCode);
    }
    const json = JSON.parse((await search(pairs[1]![0]!)).stdout);
    expect(json.hits[0].id).toBe(ids[7]);
  });

  it('gives usage errors and help as commander does', async () => {
    const none = await search(['search', '--run-dir', runDir]);
    expect(none.exitCode).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/words/);
    const bad = await search(['search', '--run-dir', runDir, '--limit', 'many', 'refused']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^ctxwrap: --limit takes a whole number .*many/);
    const unknown = await search(['search', '--run-dir', runDir, '--colour', 'refused']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--colour');
    const help = await search(['search', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('--max-chars <n>');
  });

  it('finds the others when an output is missing, and colours hits on a terminal', async () => {
    const gone = join(tempDir(), 'run');
    const kept = await storeText(gone, 'kept', lines(filler(5), 'error: zz-marker kept', filler(5)));
    const lost = await storeText(gone, 'lost', lines(filler(5), 'error: zz-marker lost', filler(5)));
    rmSync(join(gone, 'tool_results', `${lost}.txt`));
    const r = await search(['search', '--run-dir', gone, 'zz-marker']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(kept);
    expect(r.stdout).not.toContain('zz-marker lost');

    const env = cleanEnv(gone, { FORCE_COLOR: '1' });
    delete env.NO_COLOR;
    const tty = await execa('script', ['-qfec', `node ${BIN} search zz-marker`, '/dev/null'], {
      env,
      extendEnv: false,
      reject: false,
    });
    expect(tty.stdout).toContain('zz-marker kept');
    expect(tty.stdout).toContain('\x1b[');
  });
});
