/**
 * The ledger of what ctxwrap printed to the agent besides summaries (read and search output),
 * so that `stats` can count the real cost of read-backs. One JSON line per print, appended
 * with O_APPEND (atomic for lines this short, even with many writers).
 */
import { closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDir } from './run-dir.js';
import { openFileForAppend, readFileNoFollow } from './safe-open.js';

export interface LedgerLine {
  /** Milliseconds since the epoch. */
  t: number;
  /** What printed: `read`, `search`, `show`. */
  kind: string;
  /** The result the print was about; absent for a search across results. */
  id?: string;
  /** Bytes printed. */
  bytes: number;
}

export function ledgerPath(dir: RunDir): string {
  return join(dir.root, 'ledger.jsonl');
}

/** Records one print; never fails the command that printed. */
export function record(dir: RunDir, line: Omit<LedgerLine, 't'>): void {
  try {
    const fd = openFileForAppend(ledgerPath(dir));
    try {
      writeSync(fd, `${JSON.stringify({ t: Date.now(), ...line })}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* the ledger is for statistics only */
  }
}

/** All recorded prints; lines that do not parse are skipped. */
export function readLedger(dir: RunDir): LedgerLine[] {
  let text: string;
  try {
    text = readFileNoFollow(ledgerPath(dir));
  } catch {
    return [];
  }
  const out: LedgerLine[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const v = JSON.parse(line) as LedgerLine;
      if (typeof v.bytes === 'number' && typeof v.kind === 'string') out.push(v);
    } catch {
      /* a torn line */
    }
  }
  return out;
}
