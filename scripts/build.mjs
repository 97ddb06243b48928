// Bundles the CLI (with code splitting, so each subcommand loads only what it needs) and the
// library entry. Type declarations come from `npm run typecheck` (tsconfig.test.json, into
// dist/types), so that tsc runs once per `npm test` and per install.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define: { CTXWRAP_VERSION: JSON.stringify(pkg.version) },
  banner: {
    js: "import { createRequire as __ctxwrapRequire } from 'node:module'; const require = __ctxwrapRequire(import.meta.url);",
  },
  legalComments: 'none',
  // Smaller code parses faster, and every wrapped command pays for parsing it; names are kept
  // so that a stack trace (DEBUG=1) still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
