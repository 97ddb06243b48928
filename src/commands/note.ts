/** `ctxwrap note <id> "text"`: the agent's own one-line summary of a result, shown by `list`. */
import { validateId } from '../store/ids.js';
import { normalizeNote, writeNote } from '../store/notes.js';
import { readMeta } from '../store/results.js';
import { openRunDir } from '../store/run-dir.js';

export interface NoteOptions {
  runDir: string;
  id: string;
  /** The note; empty to remove it. */
  text: string;
  print: (text: string) => void;
}

export async function noteResult(opts: NoteOptions): Promise<number> {
  validateId(opts.id);
  const note = normalizeNote(opts.text);
  const dir = openRunDir(opts.runDir);
  readMeta(dir, opts.id);
  writeNote(dir, opts.id, note);
  opts.print(note === '' ? `[ctxwrap ${opts.id}] note removed\n` : `[ctxwrap ${opts.id}] note: ${note}\n`);
  return 0;
}
