/**
 * The subcommands' names, for the paths that do not build commander's tree (the fast path):
 * a first word among them goes to commander, and a near miss gets a hint. A unit test keeps
 * this list equal to the program's.
 */
export const COMMAND_NAMES = [
  'run',
  'show',
  'prompt',
  'hook',
  'init',
  'open',
  'completion',
  'read',
  'list',
  'note',
  'clean',
  'stats',
  'search',
  'mcp',
  '_finish',
] as const;
