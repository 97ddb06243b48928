// Issue 24: a hit comes with its record's header; terms as agents type them. On real outputs:
// a git log of a repository made here, an `ls -laR` of a tree made here, a stored `npm ls`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, ROOT, stored, tempDir } from '../support.js';

function gitRepo(messages: string[]): string {
  const repo = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
      },
    });
  git('init', '-q');
  messages.forEach((m, i) => {
    writeFileSync(join(repo, `f${i}.txt`), `${i}\n`);
    git('add', '.');
    git('commit', '-q', '-m', m);
  });
  return repo;
}

const search = async (runDir: string, ...args: string[]) => {
  const r = await ctxwrap(['search', '--run-dir', runDir, ...args]);
  return { out: String(r.stdout), code: r.exitCode };
};

describe('record-aware hits', () => {
  it('a hit inside a git log message shows its commit line, marked as ctxwrap context', async () => {
    const repo = gitRepo([
      'summary: first\n\nA body line.',
      'capture: keep every byte\n\nThe quokka overflow happened when the pipe closed early;\nthe fix waits for the last read.',
      'docs: third',
    ]);
    const runDir = tempDir();
    await stored(runDir, ['git', '-C', repo, 'log']);
    const hash = execFileSync('git', ['-C', repo, 'log', '-1', '--format=%H', 'HEAD~1'], {
      encoding: 'utf8',
    }).trim();
    const { out, code } = await search(runDir, 'quokka overflow');
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^\\[ctxwrap record\\] \\d+: commit ${hash}`, 'm'));
    // The header is above the hit's lines, never numbered as one of them.
    expect(out).not.toMatch(new RegExp(`^\\d+: commit ${hash}`, 'm'));
  });

  it('a hit in an ls -laR listing shows its directory', async () => {
    const root = tempDir();
    for (let d = 0; d < 6; d++) {
      const dir = join(root, `dir${d}`, 'include');
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 30; f++) writeFileSync(join(dir, `h${d}_${f}.h`), '');
    }
    writeFileSync(join(root, 'dir4', 'include', 'zlibquokka.h'), '');
    const runDir = tempDir();
    await stored(runDir, ['ls', '-laR', root]);
    const { out } = await search(runDir, 'zlibquokka.h', '--limit', '1');
    expect(out).toContain(`[ctxwrap record] `);
    expect(out).toMatch(new RegExp(`^\\[ctxwrap record\\] \\d+: ${root}/dir4/include:`, 'm'));
  });
});

describe('read --lines grep: --records', () => {
  it('shows the directory of each matching file of an ls -laR listing, once per directory', async () => {
    const root = tempDir();
    for (const d of ['alpha', 'beta']) {
      mkdirSync(join(root, d), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(join(root, d, `f${f}.c`), '');
      writeFileSync(join(root, d, `quokka_${d}.h`), '');
      writeFileSync(join(root, d, `quokka_${d}2.h`), '');
    }
    const runDir = tempDir();
    const id = await stored(runDir, ['ls', '-laR', root]);
    const r = await ctxwrap(['read', id, '--run-dir', runDir, '--lines', 'grep:quokka_', '--records']);
    const out = String(r.stdout);
    expect(r.exitCode).toBe(0);
    expect(out.match(new RegExp(`^\\[ctxwrap record\\] \\d+: ${root}/alpha:$`, 'gm'))).toHaveLength(1);
    expect(out.match(new RegExp(`^\\[ctxwrap record\\] \\d+: ${root}/beta:$`, 'gm'))).toHaveLength(1);
    expect(out.match(/^\d+: .*quokka_/gm)).toHaveLength(4);
  });
});

describe('terms as agents type them', () => {
  it('search tail-ratio finds --tail-ratio whole; where only tail and ratio are apart, nothing matches (exit 1)', async () => {
    const repo = gitRepo([
      'summary: the tail of a long output is kept\n\nThe ratio of head to end was fixed.',
      'cli: honour --tail-ratio in the budget',
    ]);
    const runDir = tempDir();
    await stored(runDir, ['git', '-C', repo, 'log', '--format=%s%n%b', 'HEAD~1']);
    const none = await search(runDir, 'tail-ratio');
    expect(none.out).toMatch(/no matches for "tail-ratio"/);
    expect(none.code).toBe(1);
    await stored(runDir, ['git', '-C', repo, 'log', '--format=%s%n%b']);
    const found = await search(runDir, 'tail-ratio', '--limit', '1');
    expect(found.code).toBe(0);
    expect(found.out).toMatch(/^\d+: cli: honour --tail-ratio in the budget$/m);
    expect(found.out).not.toContain('of 1 words');
  });

  it('parts of a word typed whole match only together on one line, and say so', async () => {
    const repo = gitRepo(['cli: honour the tail ratio in the budget', 'docs: the tail\n\nratio']);
    const runDir = tempDir();
    await stored(runDir, ['git', '-C', repo, 'log', '--format=%s%n%b']);
    const { out, code } = await search(runDir, 'tail-ratio');
    expect(code).toBe(0);
    expect(out).toMatch(/no exact 'tail-ratio', by its parts/);
    expect(out).toMatch(/^\d+: cli: honour the tail ratio in the budget$/m);
    expect(out).toMatch(/1 hit,/);
  });

  it('finds a phrase inside a long line of minified code with every word, and shows it', async () => {
    const root = tempDir();
    const min = join(root, 'bundle.min.js');
    execFileSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), [
      join(ROOT, 'node_modules', 'fast-check', 'lib', 'fast-check.js'),
      '--minify',
      `--outfile=${min}`,
      '--log-level=error',
    ]);
    const runDir = tempDir();
    await stored(runDir, ['cat', min]);
    const { out, code } = await search(runDir, 'extract', 'token', 'preceeding', '--limit', '1');
    expect(code).toBe(0);
    expect(out).toMatch(/^\[ctxwrap hit 1\/1\] \S+ lines \d+-\d+ score [\d.]+ · /m);
    expect(out).toContain('Unable to extract token preceeding the currently parsed one');
  });

  it('a camelCase word typed as printed (TypeError) is found in a JSON-lines log, with its message', async () => {
    const root = tempDir();
    const app = join(root, 'app.mjs');
    writeFileSync(
      app,
      [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line is the source of a program the test runs
        'for (let i = 0; i < 200; i++) console.log(JSON.stringify({ level: 30, reqId: `req-${i}`, msg: "request completed" }));',
        'try { ({}).order.amount; } catch (err) {',
        '  console.log(JSON.stringify({ level: 50, reqId: "req-200", err: { type: err.name, message: err.message, stack: err.stack }, msg: "handler failed" }));',
        '}',
      ].join('\n'),
    );
    const runDir = tempDir();
    await stored(runDir, [process.execPath, app]);
    const { out, code } = await search(runDir, 'TypeError', 'amount', '--limit', '1');
    expect(code).toBe(0);
    expect(out).not.toContain('not found anywhere');
    expect(out).toContain("Cannot read properties of undefined (reading 'amount')");
  });

  it('search vitest 4.1.12 puts vitest@4.1.12 of a real npm ls in the first hit', async () => {
    const runDir = tempDir();
    await stored(runDir, ['cat', join(ROOT, 'fixtures', 'search', 'npm-ls-all.txt')]);
    const { out, code } = await search(runDir, 'vitest', '4.1.12', '--limit', '1');
    expect(code).toBe(0);
    expect(out).toMatch(/^\d+: ├─┬ vitest@4\.1\.12$/m);
  });
});
