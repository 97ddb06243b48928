// Search prints a result's command in every hit header and in --json: its secrets are masked
// (as in list and stats), and characters that could reorder or hide text are escaped in JSON.
import { describe, expect, it } from 'vitest';
import { ctxwrap, tempDir } from '../support.js';

const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

describe('search shows commands as list does', () => {
  it('a token in the command line is masked in the hit header and in --json', async () => {
    const runDir = tempDir();
    const run = await ctxwrap(['-c', `GH=${TOKEN}; echo "deployed zqfrobnicate"`], { runDir });
    expect(run.exitCode).toBe(0);
    const text = await ctxwrap(['search', 'zqfrobnicate'], { runDir });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('deployed zqfrobnicate');
    expect(text.stdout).not.toContain(TOKEN);
    expect(text.stdout).toMatch(/\[ctxwrap hit 1\/1\].*GH=\[redacted:/);
    const json = await ctxwrap(['search', 'zqfrobnicate', '--json'], { runDir });
    expect(json.exitCode).toBe(0);
    expect(json.stdout).not.toContain(TOKEN);
    expect(JSON.parse(json.stdout).hits[0].command).toMatch(/^GH=\[redacted:/);
  });

  it('--json escapes C1 controls, bidi overrides and line separators in the command', async () => {
    const runDir = tempDir();
    await ctxwrap(['-c', 'echo "zqwidget \u009b \u202e \u2028 end" # \u009b\u202e\u2028'], { runDir });
    const json = await ctxwrap(['search', 'zqwidget', '--json'], { runDir });
    expect(json.exitCode).toBe(0);
    expect(json.stdout).not.toMatch(/[\u009b\u202e\u2028]/);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.hits[0].command).toContain('zqwidget');
    expect(JSON.stringify(parsed)).not.toMatch(/[\u009b\u202e\u2028]/);
  });

  it('matches against the text as printed: a masked token cannot be probed by its prefix', async () => {
    const runDir = tempDir();
    await ctxwrap(
      [
        '-c',
        `echo "export GITHUB_TOKEN=${TOKEN}"; echo "db postgres://admin:S3cretPassw0rd@db.internal/app"`,
      ],
      { runDir },
    );
    const probes = [TOKEN, TOKEN.slice(0, 8), 'S3cretPassw0rd', 'S3cret'];
    for (const probe of probes) {
      const r = await ctxwrap(['search', probe], { runDir });
      expect(r.stdout).not.toContain('[ctxwrap hit');
      expect(r.exitCode).toBe(1);
    }
    // What is printed is still found.
    const shown = await ctxwrap(['search', 'GITHUB_TOKEN'], { runDir });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(/GITHUB_TOKEN=\[redacted:/);
  });
});
