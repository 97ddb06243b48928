/**
 * Commands Claude Code may run without asking although no allow rule names them: its read-only
 * classifier (in every mode) and, in `acceptEdits`, its file-editing commands. The wrapped text
 * is neither, so Claude Code would ask for (in `-p`: refuse) a command it would have run; the
 * hook leaves these alone. Read from Claude Code 2.1.332's bundled source (the lists of
 * commands with `safeFlags`, the plain read-only list checked by
 * `^<cmd>(?:\s|$)[^<>()$`|{}&;\n\r]*$`, and `["mkdir","touch","rm","rmdir","mv","cp","sed"]`
 * for acceptEdits). This is a superset: a name is enough, whatever its flags or paths, so the
 * answer errs towards leaving alone, which never changes a verdict.
 */
import { commandWords, type SimpleCommand } from './shell-words.js';

// biome-ignore format: a table
const READ_ONLY = new Set([
  // the plain read-only list
  'cal', 'uptime', 'cat', 'head', 'tail', 'wc', 'stat', 'strings', 'hexdump', 'od', 'nl', 'id', 'uname', 'free', 'df',
  'du', 'locale', 'groups', 'nproc', 'basename', 'dirname', 'realpath', 'cut', 'paste', 'tr', 'column', 'tac', 'rev',
  'fold', 'expand', 'unexpand', 'fmt', 'comm', 'cmp', 'numfmt', 'readlink', 'diff', 'true', 'false', 'sleep', 'type',
  'expr', 'seq', 'tsort', 'pr',
  // commands with safe flags
  'arp', 'cp', 'date', 'egrep', 'fd', 'fdfind', 'fgrep', 'file', 'grep', 'hostname', 'lsof', 'md5sum', 'mv', 'netstat',
  'pgrep', 'rm', 'rmdir', 'route', 'sed', 'sha1sum', 'sha256sum', 'sort', 'ss', 'tput', 'tree', 'which', 'whoami',
  'mkdir', 'rg', 'xargs', 'touch',
  // the rest of its simple cases
  'ls', 'echo', 'printf', ':', 'pwd', 'exit', 'alias', 'cd', 'find', 'jq', 'uniq', 'test', '[', 'env', 'printenv',
]);

/** Read-only only with these subcommands (`git log`, `docker ps`, `gh pr view`). */
// biome-ignore format: a table
const READ_ONLY_SUB: Record<string, Set<string>> = {
  git: new Set([
    'blame', 'branch', 'cat-file', 'config', 'describe', 'diff', 'for-each-ref', 'grep', 'log', 'ls-files', 'ls-remote',
    'merge-base', 'reflog', 'remote', 'rev-list', 'rev-parse', 'shortlog', 'show', 'stash', 'status', 'tag', 'worktree',
  ]),
  gh: new Set(['auth', 'issue', 'label', 'pr', 'release', 'repo', 'run', 'search', 'workflow']),
  docker: new Set(['ps', 'images', 'inspect', 'logs']),
  ip: new Set(['addr']),
  node: new Set(['-v', '--version']),
  python: new Set(['--version']),
  python3: new Set(['--version']),
  claude: new Set(['-h', '--help']),
};

/** What `acceptEdits` lets run without asking. */
const EDITS = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);

const base = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** True when Claude Code might run every one of these commands without asking, in this mode. */
export function mightAutoAllow(commands: SimpleCommand[], mode: unknown): boolean {
  let any = false;
  for (const cmd of commands) {
    const words = commandWords(cmd).map((w) => w.text);
    const name = words[0];
    if (name === undefined) continue;
    any = true;
    const n = base(name);
    if (READ_ONLY.has(n)) continue;
    if (mode === 'acceptEdits' && EDITS.has(n)) continue;
    const subs = READ_ONLY_SUB[n];
    // `git -C dir log`: the subcommand may come after options; any listed word counts.
    if (subs && words.slice(1).some((w) => subs.has(w))) continue;
    return false;
  }
  return any;
}
