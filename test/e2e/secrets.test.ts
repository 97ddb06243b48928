import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ctxwrap, onlyId, storedOutput, tempDir } from '../support.js';

// Fake credentials, assembled here so that no secret scanner mistakes this file for a leak.
const token = ['gh', 'p_', 'nMnmpq5kenFAKEpjPJuY3VhllZeMbKjxwlnA'].join('');
const keyBody = [
  'pTo/rrL4t0vVyMlONy32HeuXRX63ab0LKUYg+dwOb30Ti2sHlFsZsQYZa8bBQIqA',
  'SRaNzei2nsBjcgqSf9Mh6nAopZzrSy/fMkr3ksF7FPdzT3PzabAUt0y/l3TAQhpr',
  'NeOxBRTYbbEC5Fh7zMEO6yW9TFWpfc==',
];
const key = [`-----BEGIN RSA PRIVATE ${'KEY'}-----`, ...keyBody, `-----END RSA PRIVATE ${'KEY'}-----`];
const filler = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => `${['alpha', 'beta', 'gamma'][(i + from) % 3]} step ${i + from}`);

function writeLog(lines: string[]): string {
  const file = join(tempDir(), 'out.log');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('credentials in what ctxwrap prints', () => {
  it('are masked in a small output printed whole, and kept raw on disk', async () => {
    const runDir = tempDir();
    const file = writeLog([`export GITHUB_TOKEN=${token}`, ...key, 'done']);
    const r = await ctxwrap(['--', 'cat', file], { runDir });
    expect(r.stdout).toBe(
      `export GITHUB_TOKEN=[redacted:github-token]\n${'[redacted:private-key]\n'.repeat(key.length)}done\n`,
    );
    expect(storedOutput(runDir, onlyId(runDir)).toString()).toContain(token);
  });

  it('are masked in a summary, in the salient lines and wherever a key block falls', async () => {
    const runDir = tempDir();
    const file = writeLog([
      ...filler(400, 0),
      `error: push rejected for token ${token}`,
      ...filler(400, 400),
      ...key,
      ...filler(3, 900),
    ]);
    const r = await ctxwrap(['--', 'cat', file], { runDir });
    const out = r.stdout as string;
    expect(out).toContain('401: error: push rejected for token [redacted:github-token]');
    expect(out).not.toContain(token);
    for (const line of keyBody) expect(out).not.toContain(line);
    expect(out).toContain('[redacted:private-key]');
    expect(out.length).toBeLessThanOrEqual(2000);
  });

  it('are shown as printed with --no-redact', async () => {
    const runDir = tempDir();
    const file = writeLog([`export GITHUB_TOKEN=${token}`]);
    const r = await ctxwrap(['--no-redact', '--', 'cat', file], { runDir });
    expect(r.stdout).toBe(`export GITHUB_TOKEN=${token}\n`);
  });
});

describe('credentials in read', () => {
  it('are masked, private-key lines whole even when the range starts inside the block', async () => {
    const runDir = tempDir();
    const file = writeLog([...filler(50, 0), ...key, `token=${token}`, ...filler(50, 60)]);
    await ctxwrap(['--', 'cat', file], { runDir });
    const id = onlyId(runDir);
    const r = await ctxwrap(['read', id, '--lines', '53-56'], { runDir });
    expect(r.stdout).toBe(
      '53: [redacted:private-key]\n54: [redacted:private-key]\n55: [redacted:private-key]\n56: token=[redacted:github-token]\n',
    );
    const grep = await ctxwrap(['read', id, '--lines', 'grep:token='], { runDir });
    expect(grep.stdout).not.toContain(token);
    const raw = await ctxwrap(['read', id, '--lines', '56', '--no-redact'], { runDir });
    expect(raw.stdout).toContain(token);
  });
});

describe('credentials in search', () => {
  it('are masked on hits, and shown with --no-redact', async () => {
    const runDir = tempDir();
    const file = writeLog([...filler(30, 0), `deploy failed: token=${token} rejected`, ...filler(30, 40)]);
    await ctxwrap(['--', 'cat', file], { runDir });
    const hit = await ctxwrap(['search', 'deploy rejected'], { runDir });
    expect(hit.stdout).toContain('deploy failed: token=[redacted:github-token] rejected');
    expect(hit.stdout).not.toContain(token);
    const raw = await ctxwrap(['search', 'deploy rejected', '--no-redact'], { runDir });
    expect(raw.stdout).toContain(token);
  });
});
