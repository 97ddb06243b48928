/**
 * A mistyped subcommand (`ctxwrap serach x`) would run as a command named `serach`: when that
 * word is no program on PATH and is close to a subcommand's name, say which one was meant.
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** Optimal string alignment distance: insertions, deletions, substitutions, transpositions. */
function distance(a: string, b: string): number {
  const w = b.length + 1;
  const d = new Uint16Array((a.length + 1) * w);
  const at = (i: number, j: number) => d[i * w + j] as number;
  for (let i = 0; i <= a.length; i++) d[i * w] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * w + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The subcommand `word` is a typo of, if it is one: one edit for short names, two for longer. */
export function closestName(word: string, names: readonly string[]): string | undefined {
  if (word.length < 3 || names.includes(word)) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(word.toLowerCase(), name);
    if (d <= (name.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** True when `word` names an executable: a path, or a file in one of PATH's directories. */
function onPath(word: string, path: string | undefined): boolean {
  if (word.includes('/')) return true;
  for (const dir of (path ?? '').split(':')) {
    try {
      accessSync(join(dir === '' ? '.' : dir, word), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  }
  return false;
}

/** The hint for a command that is a mistyped subcommand, or undefined. */
export function typoHint(command: readonly string[], names: readonly string[], path: string | undefined) {
  const word = command[0];
  if (word === undefined) return undefined;
  const name = closestName(word, names);
  if (name === undefined || onPath(word, path)) return undefined;
  return `'${word}' is not a command on PATH; did you mean 'ctxwrap ${name}'?`;
}
