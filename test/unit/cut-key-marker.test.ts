// Issue 20: a PEM private key whose BEGIN marker is itself cut over two lines (an output wrapped
// by fold(1) or at a terminal's width) was printed unmasked by the summary, read and search: no
// line held a whole marker, so no key block was found.
import { describe, expect, it } from 'vitest';
import { readResult } from '../../src/commands/read.js';
import { shieldFor } from '../../src/shield.js';
import { Collector } from '../../src/summary/collector.js';
import { summarize } from '../../src/summary/summarize.js';
import { inProcess, tempDir, writeResult } from '../support.js';

/** A key's base64 body: 20 lines of 64 characters, from a seed. */
function body(seed: number): string[] {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = seed;
  const lines: string[] = [];
  for (let l = 0; l < 20; l++) {
    let line = '';
    for (let i = 0; i < 64; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      line += abc[(s >>> 16) % 64];
    }
    lines.push(line);
  }
  return lines;
}

/** fold -w `width`: every line cut into pieces of `width` characters. */
const fold = (lines: string[], width: number) =>
  lines.flatMap((l) => (l === '' ? [''] : (l.match(new RegExp(`.{1,${width}}`, 'g')) as string[])));

function keyText(kind: string, prefix: string, seed: number): { lines: string[]; secret: string[] } {
  const b = body(seed);
  return {
    lines: [`${prefix}-----BEGIN ${kind}PRIVATE KEY-----`, ...b, `-----END ${kind}PRIVATE KEY-----`],
    secret: b,
  };
}

/** What every line of `lines` shows through the shield of the key blocks the collector found. */
function shown(lines: string[]): string[] {
  const c = new Collector({ keepBytes: 65536 });
  c.push(Buffer.from(`${lines.join('\n')}\n`));
  const shield = shieldFor(c.end().keyRanges);
  return lines.map((l, i) => shield(i + 1, l, { before: () => lines[i - 1], after: () => lines[i + 1] }));
}

/** The pieces of the key (8 characters or more of a body line) found in `text`. */
const leaks = (text: string, secret: string[], width: number) =>
  secret.flatMap((l) => fold([l], Math.min(width, 64))).filter((p) => p.length >= 8 && text.includes(p));

const filler = (n: number) => Array.from({ length: n }, (_, i) => `step ${i} ok`);

describe('a private key whose BEGIN marker is cut over lines', () => {
  it('is masked at every width, after any prefix, in every kind', () => {
    const failed: string[] = [];
    let seed = 1;
    for (const kind of ['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED '])
      for (const prefix of ['', 'key: ', 'PRIVATE_KEY="'])
        for (const width of [8, 10, 13, 16, 20, 24, 27, 30, 33, 40, 41, 64]) {
          const key = keyText(kind, prefix, seed++);
          const lines = [...filler(5), ...fold(key.lines, width), ...filler(5)];
          const out = shown(lines);
          const found = leaks(out.join('\n'), key.secret, width);
          if (found.length > 0) failed.push(`${kind}|${prefix}|${width}: ${found[0]}`);
          // The block ends with its END marker, cut or not: the lines after it are shown.
          if (out.slice(-5).join() !== filler(5).join()) failed.push(`${kind}|${prefix}|${width}: after`);
        }
    expect(failed).toEqual([]);
  });

  it('is masked in the summary and in read', async () => {
    const key = keyText('RSA ', '', 7);
    const text = `${[...filler(3000), ...fold(key.lines, 20), 'done'].join('\n')}\n`;
    const c = new Collector({ keepBytes: 65536 });
    c.push(Buffer.from(text));
    const keyRanges = c.end().keyRanges;
    expect(leaks(summarize(text, { exitCode: 1 }), key.secret, 20)).toEqual([]);
    const runDir = tempDir();
    writeResult(runDir, 'key_0000000a', text, { keyRanges });
    const { stdout } = await inProcess((print) =>
      readResult({
        runDir,
        id: 'key_0000000a',
        lines: '2990-3100',
        maxChars: 0,
        print,
        printBytes: () => true,
        warn: () => {},
      }),
    );
    expect(stdout).toContain('step 2999 ok');
    expect(leaks(stdout, key.secret, 20)).toEqual([]);
  });

  it('is masked when a key in a JSON string is wrapped just after an escape', () => {
    const key = body(11);
    const json = `{"key":"-----BEGIN RSA PRIVATE KEY-----\\n${key.join('\\n')}\\n-----END RSA PRIVATE KEY-----"}`;
    const lines = [...filler(3), ...fold([json], 40), ...filler(3)];
    expect(lines[3]?.endsWith('KEY-----\\')).toBe(true);
    expect(leaks(shown(lines).join('\n'), key, 40)).toEqual([]);
  });

  it('leaves a cut certificate marker and prose alone', () => {
    const lines = ['-----BEGIN CERTIF', 'ICATE-----', 'MIIBszCCAVmgAwIBAgIUQ', 'the end'];
    expect(shown(lines)).toEqual(lines);
  });
});
