/** How a stored result names its command: on one line, its secrets masked. */
import { maskArgv, maskCommandLine } from '../redact-command.js';
import { cleanLine } from '../summary/clean.js';
import type { ResultMeta } from './results.js';

/**
 * The command as a person would type it, on one line: `npm test`, `grep -r 'a b' .`, its
 * secrets masked (`maskCommandLine`).
 */
export function commandText(meta: Pick<ResultMeta, 'source' | 'command' | 'name'>): string {
  let text: string;
  if (meta.source === 'stdin') text = meta.name ? `${meta.name} (stdin)` : '(stdin)';
  else if (meta.source === 'shell') text = meta.command[2] ?? '';
  else text = meta.command.map(quote).join(' ');
  return cleanLine(maskCommandLine(text).replace(/\s+/g, ' ').trim());
}

/** The command's argv with its secrets masked (`maskArgv`; a `-c` script as `maskCommandLine`). */
export function maskedCommand(meta: Pick<ResultMeta, 'source' | 'command'>): string[] {
  if (meta.source === 'shell') return meta.command.map((a, i) => (i === 2 ? maskCommandLine(a) : a));
  return maskArgv(meta.command);
}

function quote(arg: string): string {
  // A mask stands for a value, not for brackets a shell would see.
  const plain = /^[\w@%+=:,./-]+$/.test(arg.replace(/\[redacted:[a-z-]+\]/g, 'x'));
  return plain ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
