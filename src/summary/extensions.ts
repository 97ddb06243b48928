/**
 * A column of paths has a norm of its own: the kind of file each names, by its extension. In a
 * listing of a package's files (`npm notice 1.2kB lib/a.js`, a tarball's `tar -tv`, `git ls-files`,
 * a bundle's list) most files are of a few kinds, and the one private key (`test/key.pem`) among
 * hundreds of `.js` files is the one an agent needs. A column whose values are mostly paths is
 * read by their extensions; an extension held by few of its members is rare, as a rare status is
 * in a column of statuses (see slots.ts).
 */

/** The share of a column that must be paths to be read as one. */
const PATHS = 0.9;
/** The share of the commonest extension that makes it the norm. */
const NORM = 0.5;
/** The most an extension may have of a column's members and still be rare. */
const RARE = 0.02;

/** A path with a directory: `test/fixtures/key.pem`, `"lib/a.js",`. */
const PATH = /^["'(]?[\w.@~-]*[/\\][\w./\\@~+-]*["',)]*$/;

/** The extension of a path's last part (`.pem`), or `/` when it has none. */
function extensionOf(path: string): string {
  const base =
    path
      .replace(/["',)]+$/, '')
      .split(/[/\\]/)
      .pop() ?? '';
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(base);
  return m ? `.${(m[1] as string).toLowerCase()}` : '/';
}

/** How surprising each path of a column is by its extension, in bits; undefined when it has no norm. */
export function extensionBits(values: string[]): Map<string, { bits: number; as: string }> | undefined {
  const n = values.length;
  let paths = 0;
  for (const v of values) if (PATH.test(v)) paths++;
  if (paths < PATHS * n) return undefined;
  const counts = new Map<string, number>();
  for (const v of values) counts.set(extensionOf(v), (counts.get(extensionOf(v)) ?? 0) + 1);
  let norm = 0;
  for (const c of counts.values()) norm = Math.max(norm, c);
  if (norm < NORM * n) return undefined;
  const bits = new Map<string, { bits: number; as: string }>();
  for (const v of values) {
    if (!PATH.test(v)) continue;
    const ext = extensionOf(v);
    const c = counts.get(ext) ?? n;
    if (c <= RARE * n) bits.set(v, { bits: Math.log2(n / c), as: `ext${ext}` });
  }
  return bits.size > 0 ? bits : undefined;
}
