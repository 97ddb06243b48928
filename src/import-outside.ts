/**
 * import() of a module outside the bundle (dist/cli.js, fast-glob). bin/ctxwrap.js may run
 * dist/search.cjs from V8's code cache (code-cache.ts), as a vm.Script, where import() works
 * only with an experimental option that prints a warning when used; the loader then supplies an
 * import() of its own, compiled in dist/code-cache.cjs, beside the bundle (so that a specifier
 * resolves as it would from the bundle).
 */
const IMPORTER = Symbol.for('ctxwrap.import');

type Importer = (specifier: string) => Promise<unknown>;

/** Makes `importer` the import() of importOutside (code-cache.ts). */
export function supplyImporter(importer: Importer): void {
  (globalThis as Record<symbol, unknown>)[IMPORTER] = importer;
}

/**
 * `specifier` through the import() the loader supplied, else through `own` (the caller's own
 * `() => import(specifier)`, which the bundler sees and resolves as it always did).
 */
export function importOutside<T>(specifier: string, own: () => Promise<T>): Promise<T> {
  const supplied = (globalThis as Record<symbol, unknown>)[IMPORTER] as Importer | undefined;
  return supplied ? (supplied(specifier) as Promise<T>) : own();
}
