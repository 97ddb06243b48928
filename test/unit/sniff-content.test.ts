import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinarySniffer, looksBinary } from '../../src/summary/sniff.js';

function chunked(bytes: Buffer, cuts: number[]): BinarySniffer {
  const sniffer = new BinarySniffer();
  let at = 0;
  for (const c of [...cuts.map((x) => x % (bytes.length + 1))].sort((a, b) => a - b)) {
    sniffer.push(bytes.subarray(at, c));
    at = Math.max(at, c);
  }
  sniffer.push(bytes.subarray(at));
  return sniffer;
}

describe('BinarySniffer', () => {
  it.each([
    [
      'text behind 200 NUL bytes',
      Buffer.concat([Buffer.alloc(200), Buffer.from('ok 1 - a step\n'.repeat(60_000))]),
      false,
    ],
    ['a NUL-padded binary after text', Buffer.concat([Buffer.from('header\n'), Buffer.alloc(300_000)]), true],
    [
      'text then random bytes',
      Buffer.concat([
        Buffer.from('x\n'.repeat(10)),
        Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) >>> 24)),
      ]),
      true,
    ],
    ['SQLite version banner', Buffer.from('SQLite version 3.45.1\nsqlite> .tables\n'), false],
    ['cyrillic UTF-8 text', Buffer.from('ошибка: тест не прошёл\n'.repeat(1000)), false],
  ])('%s', (_name, bytes, binary) => {
    expect(looksBinary(bytes)).toBe(binary);
    expect(chunked(bytes, [1, 8191, 8193, 65535, 65537, 70000]).binary).toBe(binary);
  });

  it('gives the same verdict however the bytes are chunked', () => {
    const text = Buffer.from('ok 1 - a line with ünïcode ✓\n'.repeat(8000));
    const noisy = Buffer.from(text);
    for (let i = 0; i < noisy.length; i += 97) noisy[i] = i % 256;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (cuts, useNoisy) => {
        const bytes = useNoisy ? noisy : text;
        expect(chunked(bytes, cuts).binary).toBe(looksBinary(bytes));
      }),
      { numRuns: 60 },
    );
  });
});
