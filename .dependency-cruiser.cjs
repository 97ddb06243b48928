/**
 * The import direction of src/ (issue 21), checked by `npm run lint`: each layer imports only the
 * layers below it, never one above.
 *
 *   text safety ← base ← summary ← result store ← capture / read / search / hook ← commands ← cli
 *
 * The four middle folders are peers: none imports another. A command does not import another
 * command, only its own parts (`commands/<name>-*.ts`), save mcp.ts (it serves the commands as tools,
 * as cli/ serves them as subcommands).
 */

// memo.ts (remembered pure functions of a line) depends on nothing: the bottom layer may use it.
const TEXT_SAFETY = '^src/(memo|wrapped-token|redact|redact-more|redact-command|key-blocks|secret-kinds|shield|controls|split-secret|gitleaks-mask|gitleaks-rules)[.]ts$';
const ENTRIES = '^src/(cli|main|search-main|index)[.]ts$';

/** From the bottom up. */
const layers = [
  { name: 'text-safety', path: TEXT_SAFETY },
  { name: 'base', path: '^src/[^/]+[.]ts$', pathNot: [TEXT_SAFETY, ENTRIES] },
  { name: 'summary', path: '^src/summary/' },
  { name: 'result-store', path: '^src/store/' },
  { name: 'capture-read-search-hook', path: '^src/(capture|read|search|hook)/' },
  { name: 'commands', path: '^src/commands/' },
  { name: 'cli', path: ['^src/cli/', ENTRIES] },
];

const upward = layers.slice(0, -1).map((layer, i) => ({
  name: `no-up-from-${layer.name}`,
  comment: `${layer.name} imports only the layers below it`,
  severity: 'error',
  from: layer.pathNot ? { path: layer.path, pathNot: layer.pathNot } : { path: layer.path },
  // A module above; a lower layer's module that an upper layer's pattern also matches is not.
  to: { path: layers.slice(i + 1).flatMap((l) => l.path), pathNot: layers.slice(0, i + 1).flatMap((l) => l.path) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-peer-imports',
      comment: 'capture, read, search and hook do not import one another',
      severity: 'error',
      from: { path: '^src/(capture|read|search|hook)/' },
      to: { path: '^src/(capture|read|search|hook)/', pathNot: '^src/$1/' },
    },
    {
      name: 'no-command-imports-a-command',
      comment:
        'a command imports only its own parts (commands/<name>-*.ts) and describe-result.ts; ' +
        'mcp.ts serves the commands as tools, as cli/ serves them as subcommands',
      severity: 'error',
      from: { path: '^src/commands/([a-z]+)', pathNot: '^src/commands/mcp[.]ts$' },
      to: { path: '^src/commands/', pathNot: ['^src/commands/$1-', '^src/commands/describe-result[.]ts$'] },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
