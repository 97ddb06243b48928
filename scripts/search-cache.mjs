// Makes dist/search.cjs.cache, the code cache `ctxwrap search` starts from (src/code-cache.ts):
// stores two outputs in a temporary run directory, runs a few searches of them in this process
// through dist/search.cjs as bin/ctxwrap.js loads it, and keeps the bytecode V8 then holds.
// Run by scripts/build.mjs after the bundles are made; a failure leaves no cache (search then
// compiles as before) and does not fail the build.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = join(root, 'dist', 'search.cjs');
const { cacheBytes, cacheOf, loadBundle } = require(join(root, 'dist', 'code-cache.cjs'));

// Lines like those searched for (a log with errors, a test run), so that every step of a search
// runs: the scan, ranking, reading hits back, masking and printing.
const LOG = [
  'for (let i = 0; i < 400; i++) {',
  "  console.log(i + ' INFO worker ' + (i % 7) + ' handled request in ' + (i % 90) + ' ms');",
  "  if (i % 37 === 5) console.log(i + ' ERROR connect ECONNREFUSED 10.0.0.' + (i % 9) + ':5432 (postgres)');",
  "  if (i % 53 === 9) console.log('test_connection_refused_' + i + ' ... FAILED: connection refused');",
  "  if (i % 61 === 3) console.log('Traceback (most recent call last):\\n  File \"db.py\", line ' + i + ', in connect\\nError: password=hunter2-' + i);",
  '}',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-search-cache-'));
try {
  for (const code of [LOG, LOG.replace('400', '150')]) {
    const run = spawnSync(
      process.execPath,
      [join(root, 'bin', 'ctxwrap.js'), '--run-dir', dir, '--', process.execPath, '-e', code],
      {
        stdio: 'ignore',
      },
    );
    if (run.status !== 0) throw new Error(`storing an output exited ${run.status}`);
  }
  const { exports, script } = loadBundle(bundle, false);
  if (!script) throw new Error('this Node loads bundles with require: no cache');
  await exports.warmUp(dir);
  const out = cacheOf(bundle);
  writeFileSync(`${out}.tmp`, cacheBytes(readFileSync(bundle), script.createCachedData()));
  renameSync(`${out}.tmp`, out);
} catch (error) {
  console.warn(`search code cache not made: ${error.message}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
