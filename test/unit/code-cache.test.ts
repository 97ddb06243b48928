// Loading a bundle with V8's code cache (src/code-cache.ts): the cache is used only when made of
// the very bytes loaded (V8 itself checks only the source's length), and the bundle runs as
// `require` would run it. Real files and V8's real cache, in-process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheBytes, cacheOf, loadBundle } from '../../src/code-cache.js';
import { ROOT, tempDir } from '../support.js';

const bundle = (value: string) =>
  `"use strict";\nconst { join } = require('node:path');\nexports.value = () => '${value}';\nexports.where = () => join(__dirname, 'x') === module.filename.replace(/[^/\\\\]+$/, 'x') && __filename === module.filename;\nmodule.filename = __filename;\nexports.later = () => globalThis[Symbol.for('ctxwrap.import')]('node:os').then((m) => typeof m.tmpdir);\n`;

/** Writes `source` as a bundle, with a cache made of `cacheSource` (by loading and running it). */
function withCache(dir: string, source: string, cacheSource = source): string {
  const file = join(dir, 'b.cjs');
  writeFileSync(file, cacheSource);
  const made = loadBundle(file, false);
  (made.exports.value as () => string)();
  writeFileSync(cacheOf(file), cacheBytes(readFileSync(file), made.script!.createCachedData()));
  writeFileSync(file, source);
  return file;
}

describe('loadBundle', () => {
  it('runs a bundle from its cache, with the arguments require gives', async () => {
    const file = withCache(tempDir(), bundle('aaaa'));
    const loaded = loadBundle(file);
    expect(loaded.script!.cachedDataRejected).toBe(false);
    expect((loaded.exports.value as () => string)()).toBe('aaaa');
    expect((loaded.exports.where as () => boolean)()).toBe(true);
    // import() through importOutside (import-outside.ts) works (vm.Script's own needs a flag).
    await expect((loaded.exports.later as () => Promise<string>)()).resolves.toBe('function');
  });

  it('does not use a cache made of other bytes of the same length', () => {
    const file = withCache(tempDir(), bundle('bbbb'), bundle('aaaa'));
    const loaded = loadBundle(file);
    // Not even offered to V8 (which would take it: it checks the length only).
    expect(loaded.script!.cachedDataRejected).toBeUndefined();
    expect((loaded.exports.value as () => string)()).toBe('bbbb');
  });

  it('compiles the bundle when its cache is missing, cut short, changed or not one', () => {
    const dir = tempDir();
    const file = withCache(dir, bundle('cccc'));
    const whole = readFileSync(cacheOf(file));
    // V8's data with a few bytes changed: V8 itself would take it and abort the process.
    const changed = Buffer.from(whole);
    const data = 24 + readFileSync(file).length;
    expect(whole.length - data).toBeGreaterThan(200);
    for (let k = data + 64; k < whole.length; k += 7) changed[k]! ^= 0x5a;
    for (const cache of [
      whole.subarray(0, 10),
      whole.subarray(0, 24 + readFileSync(file).length),
      Buffer.from('x'),
      changed,
    ]) {
      writeFileSync(cacheOf(file), cache);
      const loaded = loadBundle(file);
      expect(loaded.script!.cachedDataRejected).toBeUndefined();
      expect((loaded.exports.value as () => string)()).toBe('cccc');
    }
  });

  it('the build made a cache of dist/search.cjs that V8 takes', () => {
    const file = join(ROOT, 'dist', 'search.cjs');
    expect(existsSync(cacheOf(file))).toBe(true);
    const loaded = loadBundle(file);
    expect(loaded.script!.cachedDataRejected).toBe(false);
    expect(typeof loaded.exports.main).toBe('function');
  });
});
