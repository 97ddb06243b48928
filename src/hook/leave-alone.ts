/**
 * The commands the Claude Code hook leaves to run as they are: the small deny lists, in one
 * place so that they are easy to read and extend.
 */

/** Programs that want a terminal or never end on their own. */
// biome-ignore format: a table
export const INTERACTIVE = new Set([
  'vi', 'vim', 'nvim', 'view', 'vimdiff', 'nano', 'pico', 'emacs', 'emacsclient', 'micro', 'joe', 'hx', 'helix', 'kak', 'ne',
  'less', 'more', 'most', 'man', 'pager', 'top', 'htop', 'btop', 'atop', 'iotop', 'watch', 'ssh', 'mosh', 'telnet', 'ftp',
  'sftp', 'screen', 'tmux', 'zellij', 'fzf', 'tig', 'lazygit', 'mc', 'ranger', 'nnn', 'ipython', 'visudo', 'vipw',
  'vigr', 'sudoedit', 'edit', 'sensible-editor', 'editor', 'mutt', 'git-mergetool',
]);

/** Dev servers, as the words a command starts with (`-` = no more words, or an option next). */
// biome-ignore format: a table
export const SERVERS: string[][] = [
  ['npm', 'run', 'dev'], ['npm', 'run', 'start'], ['npm', 'run', 'serve'], ['npm', 'run', 'watch'], ['npm', 'run', 'preview'],
  ['npm', 'start'], ['npm', 'dev'],
  ['pnpm', 'dev'], ['pnpm', 'start'], ['pnpm', 'serve'], ['pnpm', 'watch'], ['pnpm', 'preview'], ['pnpm', 'run', 'dev'],
  ['pnpm', 'run', 'start'], ['pnpm', 'run', 'serve'], ['pnpm', 'run', 'watch'],
  ['yarn', 'dev'], ['yarn', 'start'], ['yarn', 'serve'], ['yarn', 'watch'], ['yarn', 'preview'], ['yarn', 'run', 'dev'],
  ['yarn', 'run', 'start'], ['bun', 'dev'], ['bun', 'run', 'dev'], ['bun', 'start'], ['bun', 'run', 'start'],
  ['vite', '-'], ['vite', 'dev'], ['vite', 'serve'], ['vite', 'preview'],
  ['next', 'dev'], ['next', 'start'], ['nuxt', 'dev'], ['nuxi', 'dev'], ['astro', 'dev'], ['remix', 'dev'],
  ['gatsby', 'develop'], ['ng', 'serve'], ['webpack', 'serve'], ['webpack-dev-server'], ['nodemon'], ['http-server'],
  ['live-server'], ['serve'], ['rails', 'server'], ['rails', 's'], ['flask', 'run'], ['uvicorn'], ['gunicorn'],
  ['php', 'artisan', 'serve'], ['hugo', 'server'], ['jekyll', 'serve'], ['python', '-m', 'http.server'],
  ['python3', '-m', 'http.server'], ['docker', 'compose', 'up'], ['docker-compose', 'up'], ['docker', 'attach'],
];

/** Wrappers whose arguments start another command. */
// biome-ignore format: a table
export const WRAPPERS = new Set([
  'sudo', 'doas', 'env', 'nohup', 'nice', 'time', 'timeout', 'stdbuf', 'command', 'npx', 'pnpx', 'bunx', 'xargs',
]);

/**
 * Builtins that would not behave as written inside ctxwrap's wrapper, though it runs in the
 * agent's own shell: `exec` replaces the shell (no summary), `trap` replaces ctxwrap's EXIT
 * trap, an alias or shell option set inside the `{ }` group is not seen by the rest of the
 * group (the shell reads the group whole before it runs any of it), job control needs the jobs.
 */
// biome-ignore format: a table
export const SHELL_STATE = new Set([
  'exec', 'trap', 'alias', 'unalias', 'shopt', 'setopt', 'unsetopt', 'enable', 'fg', 'bg', 'disown', 'bindkey',
]);
