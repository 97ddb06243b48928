import { CtxwrapError, quoted } from './errors.js';

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/**
 * Parses a size in bytes: a whole number, optionally with a binary unit (`512k`, `64M`, `1G`,
 * `2T`; `KiB`, `MB`, ... read the same: 1k = 1024 bytes). A one-line error names `what`.
 */
export function parseSize(text: string, what: string): number {
  const m = /^\s*(\d[\d_]*)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  const n = m
    ? Number((m[1] as string).replace(/_/g, '')) * (UNITS[(m[2] as string).toLowerCase()] as number)
    : Number.NaN;
  if (!Number.isSafeInteger(n))
    throw new CtxwrapError(
      `${what} takes a size in bytes, with an optional unit k, M, G or T (1k = 1024): 512M, 1G (got '${quoted(text)}')`,
    );
  return n;
}
