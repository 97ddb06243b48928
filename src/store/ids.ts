import { closeSync, openSync, readSync } from 'node:fs';
import { CtxwrapError } from '../errors.js';

/** The shape of every id: a slug of the command's name, `_`, and 8 random hex digits. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,23}_[0-9a-f]{8}$/;

/** A short, typeable slug from a command name: `/usr/bin/npm` → `npm`, `Apt-Get` → `apt-get`. */
export function slugOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const slug = base
    .toLowerCase()
    .replace(/\.(?:exe|cmd|bat|sh|js|mjs|py)$/, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return slug === '' ? 'out' : slug;
}

/** A new id for a result: `npm_3f2a9c1b`. */
export function newId(name: string): string {
  return `${slugOf(name)}_${randomHex4()}`;
}

/**
 * Four random bytes as hex, from /dev/urandom: node:crypto would load 36 modules for them, on the
 * path every wrapped command takes. Where there is no /dev/urandom, Web Crypto gives them.
 */
function randomHex4(): string {
  const bytes = Buffer.alloc(4);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, 4, null) === 4) return bytes.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    /* no /dev/urandom here */
  }
  globalThis.crypto.getRandomValues(bytes);
  return bytes.toString('hex');
}

/**
 * Checks an id given by a user before it touches the file system: only the id shape is
 * accepted, so no path, `..`, empty or overlong id can reach a file outside the run directory.
 */
export function validateId(id: string): string {
  if (ID_PATTERN.test(id)) return id;
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  throw new CtxwrapError(
    `invalid result id '${shown.replace(/[^\x20-\x7e]/g, '?')}': ids look like npm_3f2a9c1b (a name, '_', 8 hex digits); see 'ctxwrap list'`,
  );
}
