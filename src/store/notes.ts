/**
 * The agent's one-line note on a result (`ctxwrap note`), kept in `<id>.note` beside the
 * metadata rather than in it. A run still going rewrites its whole metadata when it ends, so a
 * note written into the metadata meanwhile would be lost; a file of its own has one writer
 * (`note`, atomically), and nothing else ever rewrites it. `ResultMeta.note` is still read, as
 * a fallback, for metadata that carries one.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CtxwrapError } from '../errors.js';
import { cleanLine } from '../summary/clean.js';
import { validateId } from './ids.js';
import { type ResultMeta, writeAtomic } from './results.js';
import type { RunDir } from './run-dir.js';
import { readFileNoFollow } from './safe-open.js';

/** Longest note kept, in characters. */
const NOTE_MAX_CHARS = 300;

function notePath(dir: RunDir, id: string): string {
  return join(dir.results, `${validateId(id)}.note`);
}

/** A result's note, if one was set. */
export function readNote(dir: RunDir, meta: ResultMeta): string | undefined {
  try {
    const text = readFileNoFollow(notePath(dir, meta.id)).trim();
    return text === '' ? undefined : text;
  } catch {
    return meta.note;
  }
}

/** One line, whitespace runs made single spaces, control characters made visible. */
export function normalizeNote(text: string): string {
  const note = cleanLine(text.replace(/\s+/g, ' ').trim());
  if (note.length > NOTE_MAX_CHARS) {
    throw new CtxwrapError(`a note is one line of at most ${NOTE_MAX_CHARS} characters (got ${note.length})`);
  }
  return note;
}

/** Sets a result's note; an empty note removes it. */
export function writeNote(dir: RunDir, id: string, note: string): void {
  if (note === '') rmSync(notePath(dir, id), { force: true });
  else writeAtomic(notePath(dir, id), `${note}\n`);
}
