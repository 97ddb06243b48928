import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { ROOT } from '../support.js';

it('exports summarize from the built package, with type declarations', async () => {
  const pkg = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href);
  const output = `${Array.from({ length: 3000 }, (_, i) => `row ${['a', 'b', 'c'][i % 3]} ${i}`).join('\n')}\nError: disk full\n`;
  const facts = { id: 'lib_00000000', path: '(in memory)', exitCode: 1, durationMs: 10 };
  const text = pkg.summarize(output, facts, { budget: 800 });
  expect(text.length).toBeLessThanOrEqual(800);
  expect(text).toMatch(/^\[ctxwrap lib_00000000\] exit 1 · 3,001 lines/);
  expect(text).toContain('Error: disk full');
  expect(pkg.summarize(output, facts, { budget: 800 })).toBe(text);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(existsSync(join(ROOT, manifest.exports['.'].types))).toBe(true);
});
