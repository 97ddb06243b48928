import { describe, expect, it } from 'vitest';
import { cleanLine } from '../../src/summary/clean.js';
import { KeyRanges, linesBefore } from '../../src/summary/key-ranges.js';

const LINES = [
  'log start',
  '-----BEGIN RSA PRIV',
  'ATE KEY-----',
  'MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu',
  '-----END RSA PRIVATE KEY-----',
  'a line after \x1b[1mit\x1b[0m',
  'private key: none here',
];

describe('KeyRanges.read', () => {
  it('finds the blocks `track` finds from the same lines, and asks for the lines before only when it reads them', () => {
    const work = Buffer.from(`${LINES.join('\n')}\n`);
    const byTrack = new KeyRanges();
    const byRead = new KeyRanges();
    const asked: number[] = [];
    let s = 0;
    LINES.forEach((text, i) => {
      const e = work.indexOf(10, s);
      byTrack.track(cleanLine(text), i + 1, () => linesBefore(work.subarray(0, s)));
      byRead.read(work, s, e, i + 1, (w, at) => {
        asked.push(i + 1);
        return linesBefore(w.subarray(0, at));
      });
      s = e + 1;
    });
    expect(byRead.list()).toEqual(byTrack.list());
    expect(byRead.list()).toEqual([{ from: 2, to: 5 }]);
    // Only lines that may end a piece of a marker (a dash, BEGIN, PRIVATE or KEY) look back.
    expect(asked).toEqual([2, 3, 5]);
  });
});
