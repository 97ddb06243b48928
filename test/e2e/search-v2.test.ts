// Search without an index: every defect of issue 11 (and the search parts of issue 13), end to
// end through the built CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, filler, frames, searchIn, storeText, tempDir } from '../support.js';

const lines = (...parts: (string | string[])[]) => `${parts.flat().join('\n')}\n`;

/** Every file under `dir` with its size and modification time. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(dir, p), `${st.size} ${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

/** Files under `dir` whose bytes hold `text` (as grep -rlaF finds them). */
function filesHolding(dir: string, text: string): string[] {
  if (!existsSync(dir)) return [];
  try {
    return execFileSync('grep', ['-rlaiF', text, dir], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return [];
  }
}

describe('search v2', () => {
  it('writes nothing under the run directory but one ledger line without words, even 20 at once', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    await storeText(runDir, 'db', lines(filler(30), 'error: connection refused by quokkadb', filler(30, 31)));
    const ledger = join(runDir, 'ledger.jsonl');
    const before = snapshot(runDir);
    const ledgerBefore = existsSync(ledger) ? readFileSync(ledger, 'utf8') : '';
    const runs = await Promise.all(
      Array.from({ length: 20 }, () => ctxwrap(['search', '--run-dir', runDir, 'quokkadb refused'])),
    );
    for (const r of runs) expect(r.exitCode).toBe(0);
    const after = snapshot(runDir);
    after.delete('ledger.jsonl');
    before.delete('ledger.jsonl');
    expect(after).toEqual(before);
    const added = readFileSync(ledger, 'utf8').slice(ledgerBefore.length).trim().split('\n');
    expect(added).toHaveLength(20);
    for (const line of added) {
      expect(Object.keys(JSON.parse(line)).sort()).toEqual(['bytes', 'kind', 't']);
      expect(line).not.toContain('quokka');
    }
  });

  it('clean --all leaves no file holding the words of an output (a 0.1 index/ included)', async () => {
    const runDir = join(tempDir(), 'run');
    const token = `ghp_${'Zq7'.repeat(12)}`;
    const r = await ctxwrap(['--run-dir', runDir, '-c', `echo "export GITHUB_TOKEN=${token}"`]);
    expect(r.exitCode).toBe(0);
    // What a ctxwrap 0.1 search left: tokens of the output, lowercased, in index/.
    mkdirSync(join(runDir, 'index'));
    writeFileSync(join(runDir, 'index', 'pack-1.idx'), `github_token ${token.toLowerCase()}`);
    const s = await searchIn(runDir, ['GITHUB_TOKEN']);
    expect(s.exitCode).toBe(0);
    expect(s.stdout).not.toContain(token);
    expect(filesHolding(runDir, token).length).toBeGreaterThan(0);
    const c = await ctxwrap(['clean', '--all', '--run-dir', runDir]);
    expect(c.exitCode).toBe(0);
    expect(filesHolding(runDir, token)).toEqual([]);
    expect(filesHolding(runDir, 'github_token')).toEqual([]);
  });

  it('shows the matching line of a hit in an output over 1 MiB', async () => {
    const runDir = join(tempDir(), 'run');
    const cmd = `echo first; head -c 2000000 /dev/zero | tr "\\0" b; echo; echo "error: yyneedle after"; echo last`;
    await ctxwrap(['--run-dir', runDir, '-c', cmd]);
    const r = await searchIn(runDir, ['yyneedle']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('3: error: yyneedle after\n');
    expect(frames(r.stdout)[0]).toMatchObject({ last: 4 });
    // The long line shown as context is cut, with a mark, never whole.
    expect(r.stdout).toMatch(/^2: …\[1,99\d,\d{3} bytes cut\]…b+$/m);
  });

  it('keeps line numbers exact after a very long first line', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const id = await storeText(
      runDir,
      'long',
      lines('x'.repeat(3_000_000), 'two', 'three', 'four: the zqxmarker line', 'five', ...filler(20, 6)),
    );
    const r = await searchIn(runDir, ['zqxmarker']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('4: four: the zqxmarker line\n');
    expect(frames(r.stdout)[0]).toEqual({ id, first: 1, last: 7 });
  });

  it('shows a window of a long line around the match, with cut marks on both sides', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const minified = `${'var a=1;'.repeat(40_000)}throw new QuokkaError("glacier melted");${'b=2;'.repeat(40_000)}`;
    await storeText(runDir, 'min', lines('header', minified, 'footer'));
    const r = await searchIn(runDir, ['QuokkaError glacier']);
    expect(r.exitCode).toBe(0);
    const shown = r.stdout.split('\n').find((l) => l.startsWith('2: '))!;
    expect(shown).toMatch(
      /^2: …\[3\d\d,\d{3} bytes cut\]….*QuokkaError\("glacier melted"\).*…\[1\d\d,\d{3} bytes cut\]…$/,
    );
    expect(shown.length).toBeLessThanOrEqual(210);
  });

  it('finds words inside a minified line and JSON keys with dots', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const times: Record<string, string> = {};
    for (let i = 0; i < 3000; i++)
      times[`4.${Math.floor(i / 100)}.${i % 100}`] =
        `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}+00:00`;
    times['4.1.12'] = '2026-10-15T14:51:24+00:00';
    await storeText(runDir, 'npm', lines(JSON.stringify({ name: 'vitest', time: times })));
    const r = await searchIn(runDir, ['vitest 4.1.12 publish time']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('"4.1.12":"2026-10-15T14:51:24+00:00"');
    expect(r.stdout.split('\n')[0]).toContain('not found anywhere: publish');
  });

  it('finds identifiers by their parts: ECONNREFUSED for "refused"', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    await storeText(
      runDir,
      'net',
      lines(filler(10), 'Error: connect ECONNREFUSED 127.0.0.1:5432', filler(10, 12)),
    );
    const r = await searchIn(runDir, ['refused']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('11: Error: connect ECONNREFUSED 127.0.0.1:5432\n');
  });

  it('searches text that starts like a file signature, or has a few NUL bytes in front', async () => {
    const runDir = join(tempDir(), 'run');
    await ctxwrap([
      '--run-dir',
      runDir,
      '-c',
      'echo "SQLite version 3.45.1 loaded"; echo "Error: database is locked"',
    ]);
    await ctxwrap(['--run-dir', runDir, '-c', 'echo "BZh91AY&SY"; echo "Error: bzip stream is wobbly"']);
    const nuls = `printf "\\0\\0\\0"; i=0; while [ $i -lt 9000 ]; do echo "row $i of the plain text table"; i=$((i+1)); done; echo "Error: tablespace frobnicated"`;
    await ctxwrap(['--run-dir', runDir, '-c', nuls]);
    for (const [q, line] of [
      ['database locked', '2: Error: database is locked'],
      ['wobbly', '2: Error: bzip stream is wobbly'],
      ['tablespace frobnicated', '9001: Error: tablespace frobnicated'],
    ]) {
      const r = await searchIn(runDir, [q!]);
      expect(r.exitCode, q).toBe(0);
      expect(r.stdout, q).toContain(`${line}\n`);
    }
    // Real binary data is not searched.
    const elf = await ctxwrap(['--run-dir', runDir, '--', 'cat', process.execPath]);
    expect(elf.exitCode).toBe(0);
    const b = await searchIn(runDir, ['GLIBC']);
    expect(b.stdout).not.toMatch(/\[ctxwrap hit \d+\/\d+\] cat_/);
  });

  it('collapses the same lines in re-runs of one command into one hit naming the newest', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const file = join(root, 'out.txt');
    writeFileSync(file, lines(filler(10), 'FAIL test/quokka.test.ts > melts the glacier', filler(10, 12)));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await ctxwrap(['--run-dir', runDir, '--', 'cat', file]);
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const name of readdirSync(join(runDir, 'tool_results')))
      if (/^cat_[0-9a-f]{8}\.txt$/.test(name)) ids.push(name.slice(0, -4));
    expect(ids).toHaveLength(3);
    const newest = ids
      .map((id) => JSON.parse(readFileSync(join(runDir, 'tool_results', `${id}.json`), 'utf8')))
      .sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt))[0].id;
    const r = await searchIn(runDir, ['quokka glacier']);
    expect(r.exitCode).toBe(0);
    const hits = frames(r.stdout);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.id).toBe(newest);
    expect(r.stdout).toContain('same lines in 3 runs of this command, newest shown');
  });

  it('shows three or more identical lines of a hit as the first and a count; --json keeps every line', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const loop = Array.from({ length: 6 }, () => 'retrying in 1s: connection refused by quokkadb');
    const id = await storeText(
      runDir,
      'retry',
      lines(filler(22), loop, 'gave up on quokkadb', 'waiting', 'waiting', filler(20, 40)),
    );
    const r = await searchIn(runDir, ['gave up quokkadb']);
    expect(r.exitCode).toBe(0);
    expect(frames(r.stdout)[0]).toMatchObject({ id });
    const shown = r.stdout.split('\n');
    // The hit is its best line (29) with 3 lines of context: three of the loop's lines.
    const first = shown.indexOf('26: retrying in 1s: connection refused by quokkadb');
    expect(first).toBeGreaterThan(0);
    // Two identical lines stay as they are.
    expect(shown.slice(first, first + 5)).toEqual([
      '26: retrying in 1s: connection refused by quokkadb',
      '[ctxwrap: previous line repeated 2 more times]',
      '29: gave up on quokkadb',
      '30: waiting',
      '31: waiting',
    ]);
    const json = await searchIn(runDir, ['gave up quokkadb', '--json']);
    const lineNumbers = JSON.parse(json.stdout).hits[0].snippet.map((l: { line: number }) => l.line);
    expect(lineNumbers).toEqual(expect.arrayContaining([26, 27, 28, 29]));
  });

  it("shows a hit's best line with its context, and a matching line of its window just past it (the frame)", async () => {
    const runDir = join(tempDir(), 'run');
    await storeText(
      runDir,
      'vitest',
      lines(
        ' FAIL  test/base.test.ts > withoutBase > "/api?test"',
        "AssertionError: expected '/api?test' to be '/?test'",
        '',
        'Expected: "/?test"',
        'Received: "/api?test"',
        '',
        ' ❯ test/base.test.ts:69:44',
        filler(12, 100),
      ),
    );
    const r = await searchIn(runDir, ['assertion base.test.ts', '--limit', '1']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('1:  FAIL  test/base.test.ts');
    expect(r.stdout).toContain('7:  ❯ test/base.test.ts:69:44');
  });

  it('scopes a search to results by id with --in GLOB', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    const tsc = await storeText(runDir, 'tsc', lines(filler(5), 'error TS2345: flaky quokka'));
    const npm = await storeText(runDir, 'npm', lines(filler(5), 'npm ERR! flaky quokka'));
    const r = await searchIn(runDir, ['flaky quokka', '--in', 'tsc_*']);
    expect(r.exitCode).toBe(0);
    expect(frames(r.stdout).map((h) => h.id)).toEqual([tsc]);
    const both = await searchIn(runDir, ['flaky quokka', '--in', '{tsc,npm}_*']);
    expect(new Set(frames(both.stdout).map((h) => h.id))).toEqual(new Set([tsc, npm]));
    const none = await searchIn(runDir, ['flaky', '--in', 'cargo_*']);
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toBe('[ctxwrap search] no matches for "flaky" in 0 results\n');
    const bad = await searchIn(runDir, ['flaky', '--in', '../*']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^ctxwrap: --in takes a pattern of result ids such as 'tsc_\*'/);
  });

  it('shows what fits under a small --max-chars, cut with a mark, and exits 0', async () => {
    const root = tempDir();
    const runDir = join(root, 'run');
    await storeText(runDir, 'wide', lines(filler(3), `error: quokka ${'detail '.repeat(200)}`, filler(3, 5)));
    const r = await searchIn(runDir, ['quokka', '--max-chars', '400']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(400);
    expect(r.stdout).toMatch(/^4: error: quokka detail .*…\[\d[\d,]* bytes cut\]…$/m);
    expect(r.stdout).not.toContain('no hit fits');
  });
});
