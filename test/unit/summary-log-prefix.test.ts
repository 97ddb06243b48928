import { describe, expect, it } from 'vitest';
import { logPrefix } from '../../src/summary/log-prefix.js';
import { mineTemplates } from '../../src/summary/mine.js';
import { template } from '../../src/summary/salience.js';

const at = (i: number, rest: string) =>
  `10526:S 26 Nov 2026 13:38:${String(10 + (i % 50)).padStart(2, '0')}.${String(100 + i).padStart(3, '0')} ${rest}`;

/** A server's log: most lines are requests, a few say what happened, all behind one prefix. */
function log(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    lines.push(at(i, `- Accepted 127.0.0.1:${45000 + i}`));
    lines.push(at(i, `- Client closed connection id=${i} addr=127.0.0.1:${45000 + i} fd=8 name= age=0`));
    if (i === 30) lines.push(at(i, '# Connection with master lost.'));
    if (i === 31) lines.push(at(i, '* Caching the disconnected master state.'));
    if (i === 32) lines.push(at(i, '* Reconnecting to MASTER 127.0.0.1:27201'));
  }
  return lines;
}

describe("a log's prefix", () => {
  it('is the words most lines open with once numbers are masked, with a word in them', () => {
    expect(logPrefix(log().map((l) => template(l).split(' '))).slice(0, 5)).toEqual([
      '#:S',
      '#',
      'Nov',
      '#',
      '#',
    ]);
    // Columns of numbers alone are a listing's, not a header.
    const rows = Array.from({ length: 40 }, (_, i) =>
      template(`${i} ${i * 3} ${i * 7} name_${i}`).split(' '),
    );
    expect(logPrefix(rows)).toEqual([]);
  });

  it('is left out when lines are mined: messages that share only the prefix are apart', () => {
    const lines = log();
    const keys = mineTemplates(lines.map((text) => ({ text, kind: 'plain' })));
    const key = (s: string) => keys.get(lines.find((l) => l.endsWith(s)) as string);
    expect(key('# Connection with master lost.')).not.toBe(key('* Caching the disconnected master state.'));
    // Before, these two were one template of 10 words: the prefix's 5 made them agree at half.
    expect(key('# Connection with master lost.')).not.toBe(key('* Reconnecting to MASTER 127.0.0.1:27201'));
    // The requests are still one template each.
    expect(new Set(lines.filter((l) => l.includes('Accepted')).map((l) => keys.get(l))).size).toBe(1);
  });
});
