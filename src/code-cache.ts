/**
 * Loading a CommonJS bundle with V8's code cache (dist/code-cache.cjs; bin/ctxwrap.js loads
 * dist/search.cjs through it). A new process compiles every function it runs: for a search,
 * the bundle's top level and then, lazily, each function at its first call, some 20-30 ms of
 * its CPU. The build runs a few searches once and keeps the bytecode V8 then holds
 * (scripts/search-cache.mjs); a search starts from it.
 *
 * The cache file is `<bundle>.cache`: the bundle's length (4 bytes), the SHA-1 of V8's data (20
 * bytes), the bundle's bytes, then V8's data. V8 checks its own version and flags, but of the
 * source only its length, so the cache is used only when it was made of these very bytes (a
 * rebuilt bundle has a new cache, or none); and V8 does not check the data's bytes (a corrupted
 * cache aborts node), so the data is used only when its SHA-1 is the one recorded. When
 * there is no cache, or V8 refuses it (another Node version, other V8 flags), the bundle is
 * compiled as `require` would. Nothing is written here: the cache is made by the build only.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { supplyImporter } from './import-outside.js';

interface Loaded {
  exports: Record<string, unknown>;
  /** The compiled bundle (to make a cache of). */
  script: Script;
}

/** The file of the cache of `file`. */
export const cacheOf = (file: string) => `${file}.cache`;

/** Bytes before the bundle's in a cache file: its length, and the SHA-1 of V8's data. */
const HEAD = 4 + 20;

/** V8's data of the cache `cache` when it was made of `source` and is whole, else undefined. */
function dataFor(source: Buffer, cache: Buffer | undefined): Buffer | undefined {
  if (!cache || cache.length < HEAD) return undefined;
  const n = cache.readUInt32LE(0);
  if (n !== source.length || cache.length <= HEAD + n) return undefined;
  if (!cache.subarray(HEAD, HEAD + n).equals(source)) return undefined;
  const data = cache.subarray(HEAD + n);
  return createHash('sha1').update(data).digest().equals(cache.subarray(4, HEAD)) ? data : undefined;
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Runs the CommonJS bundle `file` (an absolute path), with its code cache when there is a good
 * one (`useCache`), as `require` would: the same module wrapper and arguments.
 */
export function loadBundle(file: string, useCache = true): Loaded {
  // The bundle's import() goes through importOutside (import-outside.ts), given one compiled here.
  supplyImporter((specifier) => import(specifier));
  const source = readFileSync(file);
  const cachedData = useCache ? dataFor(source, readOrUndefined(cacheOf(file))) : undefined;
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) { ${source.toString('utf8')}\n});`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as Record<string, unknown> };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}

/** The cache file's bytes for `source` and V8's data `data` (see the module's comment). */
export function cacheBytes(source: Buffer, data: Buffer): Buffer {
  const n = Buffer.alloc(4);
  n.writeUInt32LE(source.length, 0);
  return Buffer.concat([n, createHash('sha1').update(data).digest(), source, data]);
}
