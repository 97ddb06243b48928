// Issue 20: a token wrapped over three lines or more (a terminal's width, fold(1)) had only its
// first two lines joined (split-secret.ts): the pieces after the second were printed.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import { readIn, tempDir, writeResult } from '../support.js';

const fold = (line: string, width: number) => line.match(new RegExp(`.{1,${width}}`, 'g')) as string[];
const SECRETS = [
  'ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A7',
  'api_key=Zx81kQm2Vb7Lp0Rt5Ws9Yc3Hn6Jd4Fg1Ae8Ku2',
  'Authorization: Bearer abcDEF123ghiJKL456mnoPQR789stuVWX012yzAB',
];
/** The value of a secret: what must not show. */
const secretValue = (secret: string) => secret.replace(/^.*(?:=|Bearer )/, '');

/** The pieces of the value of `secret` that `wrapped` (a line holding it) cut at `width` puts on its lines. */
function pieces(wrapped: string, secret: string, width: number): string[] {
  const value = secretValue(secret);
  const from = wrapped.indexOf(value);
  const out: string[] = [];
  for (let s = 0; s < wrapped.length; s += width) {
    const piece = wrapped.slice(Math.max(s, from), Math.min(s + width, from + value.length));
    if (piece.length >= 4) out.push(piece);
  }
  return out;
}

const leaks = (text: string, wrapped: string, secret: string, width: number) =>
  pieces(wrapped, secret, width).filter((p) => text.includes(p));

describe('a secret wrapped over three lines or more', () => {
  it('is masked in every piece in the summary (a short output, printed whole)', () => {
    const failed: string[] = [];
    for (const secret of SECRETS)
      for (const width of [10, 12, 14, 16, 20, 24]) {
        const out = summarize(`start\n${fold(`token is ${secret}`, width).join('\n')}\ndone\n`, {
          exitCode: 1,
        });
        const found = leaks(out, `token is ${secret}`, secret, width);
        if (found.length > 0) failed.push(`${width} ${found.join(',')}`);
        if (!out.includes('\ndone\n')) failed.push(`${width} done masked`);
      }
    expect(failed).toEqual([]);
  });

  it('is masked in the tail of a long output and in read', async () => {
    const secret = SECRETS[0] as string;
    const text = `${Array.from({ length: 3000 }, (_, i) => `step ${i} ok`).join('\n')}\n${fold(`login with token is ${secret}`, 16).join('\n')}\ndone\n`;
    expect(leaks(summarize(text, { exitCode: 1 }), `login with token is ${secret}`, secret, 16)).toEqual([]);
    const runDir = tempDir();
    writeResult(runDir, 'wrap_0000000a', text);
    for (const lines of ['2995-3010', 'grep:done', 'last:3']) {
      const { stdout } = await readIn(runDir, 'wrap_0000000a', lines);
      expect(stdout).toContain('done');
      expect(leaks(stdout, `login with token is ${secret}`, secret, 16), lines).toEqual([]);
    }
  });

  it('leaves lists of hashes, base64 and prose alone', () => {
    const hashes = Array.from({ length: 6 }, (_, i) =>
      `${i}`.repeat(8).concat('a1b2c3d4e5f60718293a4b5c6d7e8f9001122334455667788'),
    );
    const b64 = [
      'MIIBszCCAVmgAwIBAgIUQ0FkZWZhdWx0',
      'Y2VydGlmaWNhdGUgZm9yIHRlc3RpbmcK',
      'c29tZSBtb3JlIGJ5dGVzIGhlcmUgb2sK',
      'end of it',
    ];
    const prose = [
      'the build finished in 12s and then',
      'it printed some more lines that are',
      'not secrets at all, only words ok',
    ];
    for (const lines of [hashes, b64, prose]) {
      const text = `${lines.join('\n')}\n`;
      expect(summarize(text, { exitCode: 1 })).not.toContain('[redacted');
    }
  });
});
