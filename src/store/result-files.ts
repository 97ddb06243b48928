/**
 * The one listing of `tool_results/`: every file that belongs to a result, named
 * `<id>.<suffix>` (`txt`, `json`, `summary.txt`, `fp.json`, `note`, and the temporary files of
 * their atomic writes). Files whose name starts with no valid id are not ctxwrap's and are left
 * out; a missing directory lists nothing.
 */
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { ID_PATTERN } from './ids.js';
import type { RunDir } from './run-dir.js';

export interface ResultFile {
  /** The result the file belongs to. */
  id: string;
  /** What follows the id and its dot: `json`, `txt`, `note`, `fp.json`, ... */
  suffix: string;
  /** The file's path. */
  path: string;
}

/** The files of `tool_results/` that belong to a result, in directory order. */
export function resultFiles(dir: RunDir): ResultFile[] {
  let names: string[];
  try {
    names = readdirSync(dir.results);
  } catch {
    return [];
  }
  const files: ResultFile[] = [];
  // dir.results is normalized and a name has no separator: no join (path.join costs ~10 us a
  // call while the JIT is cold, and a search lists over a thousand files before it can start).
  const prefix = dir.results + sep;
  for (const name of names) {
    const dot = name.indexOf('.');
    const id = dot === -1 ? name : name.slice(0, dot);
    if (!ID_PATTERN.test(id)) continue;
    files.push({ id, suffix: dot === -1 ? '' : name.slice(dot + 1), path: prefix + name });
  }
  return files;
}
