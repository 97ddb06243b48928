// Builds dist/:
//  - ctxwrap.cjs: one CommonJS file for the fast path (`ctxwrap -- cmd`, `ctxwrap -c '...'` on
//    pipes), which every wrapped command pays for: run's code only, no commander, no chalk;
//  - search.cjs: `ctxwrap search` on pipes, also without commander and chalk;
//  - cli.js (+ chunks/): the ESM build of every subcommand, with code splitting so that each
//    loads only what it needs; ctxwrap.cjs imports it for anything but the fast path;
//  - index.js: the library entry.
// Type declarations come from `npm run typecheck` (tsconfig.test.json, into dist/types), so that
// tsc runs once per `npm test` (install builds only; `npm pack` type-checks in prepack): the
// build removes everything in dist/ but them.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = new URL('../dist/', import.meta.url);
try {
  for (const name of readdirSync(dist))
    if (name !== 'types') rmSync(new URL(name, dist), { recursive: true, force: true });
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  define: { CTXWRAP_VERSION: JSON.stringify(pkg.version) },
  legalComments: 'none',
  // Smaller code parses faster, and every wrapped command pays for parsing it; names are kept
  // so that a stack trace (DEBUG=1) still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  banner: {
    js: "import { createRequire as __ctxwrapRequire } from 'node:module'; const require = __ctxwrapRequire(import.meta.url);",
  },
});
// The commander path (cli.js) stays out of the bundles of the fast paths.
const apart = {
  name: 'paths-stay-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/cli\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
await build({
  ...common,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/ctxwrap.cjs',
  format: 'cjs',
  plugins: [apart],
});
await build({
  ...common,
  entryPoints: ['src/search-main.ts'],
  outfile: 'dist/search.cjs',
  format: 'cjs',
  plugins: [apart],
  // fast-glob is loaded from node_modules when used (--in). minisearch is bundled: a search
  // with anything to rank loads it, and finding it in node_modules (the CJS loader's package
  // resolution, cold) cost more CPU than the rest of its load (about 16 of 25 ms).
  external: ['fast-glob'],
});
// The loader of search.cjs with its code cache (src/code-cache.ts), then the cache itself.
await build({ ...common, entryPoints: ['src/code-cache.ts'], outfile: 'dist/code-cache.cjs', format: 'cjs' });
spawnSync(process.execPath, [fileURLToPath(new URL('search-cache.mjs', import.meta.url))], {
  stdio: 'inherit',
});
