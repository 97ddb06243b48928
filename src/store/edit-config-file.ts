/**
 * Writing a user's configuration file (agent settings, CLAUDE.md) as the user keeps it: through
 * a symlink (dotfiles) to the file it points to, with the file's mode kept (read-only stays
 * read-only), by a temporary file and a rename so that a reader never sees half a file. And
 * reading JSON with comments and trailing commas, which Gemini CLI accepts in its settings.
 */
import { chmodSync, mkdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes `text` to `file`, or to the file a symlink at `file` points to, keeping its mode. */
export function writeConfigFile(file: string, text: string): void {
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    /* no file yet (or a dangling link): write at the path given */
  }
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o7777;
  } catch {
    /* a new file */
  }
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.ctxwrap-tmp-${process.pid}`;
  writeFileSync(tmp, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, target);
}

/**
 * JSON with `//` and `/* *\/` comments and trailing commas as plain JSON (comments become
 * spaces, so that positions in error messages stay right). Strings are left whole.
 */
export function jsonWithoutComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const j = end === -1 ? text.length : end;
      out += ' '.repeat(j - i);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const j = end === -1 ? text.length : end + 2;
      out += text.slice(i, j).replace(/[^\n]/g, ' ');
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  // A comma before a closing bracket (outside strings: the strings are skipped the same way).
  return out.replace(/"(?:[^"\\]|\\.)*"|,(\s*[}\]])/g, (m, close: string | undefined) =>
    close === undefined ? m : ` ${close}`,
  );
}
