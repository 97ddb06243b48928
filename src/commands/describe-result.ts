/** How `list`, `clean` and `stats` name a result: its command on one line, its age, its size. */
import { lstatSync } from 'node:fs';
import { maskArgv, maskCommandLine } from '../redact.js';
import type { ResultMeta } from '../store/results.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';
import { cleanLine } from '../summary/clean.js';

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
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Cuts text to `max` characters, marking the cut. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A compact age: 45s, 12m, 5h, 3d. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** Bytes of a result's output: from its metadata, or from the file while it is being written. */
export function storedBytes(dir: RunDir, meta: ResultMeta): number {
  if (meta.state === 'complete' && typeof meta.bytes === 'number') return meta.bytes;
  try {
    return lstatSync(resultPaths(dir, meta.id).output).size;
  } catch {
    return 0;
  }
}
