import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/search/build.js';
import { addTrigrams, bloomOf, gramsMayHold, mayHold, trigramFilterBytes } from '../../src/search/filters.js';
import { sortedOrder } from '../../src/search/index-encode.js';
import { IndexReader, UnusableIndex } from '../../src/search/index-file.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxwrap-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function indexOf(text: string, coverage = { headBytes: 1 << 20, tailBytes: 1 << 20 }) {
  const path = join(dir, `out-${Math.random().toString(16).slice(2)}.txt`);
  writeFileSync(path, text);
  const { data, stamp } = buildIndex(path, coverage);
  return { path, data, stamp, reader: IndexReader.fromBuffer(data, stamp) };
}

const numbered = (n: number, word = (i: number) => `line${i}`) =>
  Array.from({ length: n }, (_, i) => `${word(i + 1)} filler`).join('\n');

describe('the search index', () => {
  it('finds tokens exactly and by prefix, in the blocks that hold them', () => {
    const { reader } = indexOf(`${numbered(9)}\nerror: connection refused\n\x1b[31mErrors\x1b[0m: 2\n`);
    expect(reader.header.blocks).toBe(3);
    const exact = reader.find('error', 'exact');
    expect(exact.map((p) => [p.term, [...p.blocks], [...p.counts]])).toEqual([['error', [2], [1]]]);
    expect(reader.find('err', 'prefix').map((p) => p.term)).toEqual(['error', 'errors']);
    expect(reader.find('zebra', 'exact')).toEqual([]);
    const t = reader.table();
    expect([t.line(2), t.lines(2)]).toEqual([8, 3]);
  });

  it('keeps many tokens across dictionary blocks', () => {
    const { reader } = indexOf(numbered(1000, (i) => `tok${String(i).padStart(4, '0')}`));
    expect(reader.header.terms).toBe(1001);
    for (const i of [1, 64, 65, 500, 1000]) {
      const t = `tok${String(i).padStart(4, '0')}`;
      expect(
        reader.find(t, 'exact').map((p) => [...p.blocks]),
        t,
      ).toEqual([[Math.floor((i - 1) / 4)]]);
    }
    expect(reader.find('tok09', 'prefix', 1000)).toHaveLength(100);
    expect(reader.find('tok', 'prefix', 5).map((p) => p.term)).toHaveLength(5);
  });

  it('indexes only the head and tail of a large output, and records the gap', () => {
    const text = `${numbered(3000)}\n`;
    const { reader } = indexOf(text, { headBytes: 2000, tailBytes: 2000 });
    expect(reader.header.gaps).toHaveLength(1);
    const [head, tail] = reader.header.regions;
    expect(head?.firstLine).toBe(0);
    expect(tail!.firstLine + tail!.lines).toBe(3000);
    expect(reader.find('line1500', 'exact')).toEqual([]);
    expect(reader.find('line3000', 'exact')).toHaveLength(1);
  });

  it.each([
    ['empty file', () => Buffer.alloc(0)],
    ['truncated', (b: Buffer) => b.subarray(0, b.length - 1)],
    ['wrong magic', (b: Buffer) => Buffer.concat([Buffer.from('x'), b.subarray(1)])],
    ['header not JSON', (b: Buffer) => Buffer.concat([b.subarray(0, 20), Buffer.from('}'), b.subarray(21)])],
    ['garbage', (b: Buffer) => Buffer.alloc(b.length, 7)],
  ])('refuses an index that is %s', (_, damage) => {
    const { data, stamp } = indexOf(numbered(100));
    expect(() => IndexReader.fromBuffer(damage(data), stamp)).toThrow(UnusableIndex);
  });

  it('refuses an index built from another version of the output', () => {
    const { data, stamp, path } = indexOf(numbered(10));
    expect(() => IndexReader.fromBuffer(data, { ...stamp, size: stamp.size + 1 })).toThrow(UnusableIndex);
    expect(statSync(path).size).toBe(stamp.size);
  });

  it('refuses postings that point outside the blocks', () => {
    const { data, stamp } = indexOf(numbered(8));
    const h = IndexReader.fromBuffer(data, stamp).header;
    const bad = Buffer.from(data);
    bad.fill(0x7f, h.post[0], h.post[0] + h.post[1]);
    expect(() => IndexReader.fromBuffer(bad, stamp).find('line1', 'prefix')).toThrow(UnusableIndex);
  });
});

describe('sortedOrder', () => {
  it.each([
    [['b', 'a', 'c']],
    [['abcdef', 'abcdea', 'abcde', 'abcd', 'ab']],
    [['zz', 'Zz', '10', '1', '1,000', 'a.b', 'a-b', 'a_b', 'a~b']],
    [['東京', 'café', 'cafe', 'caf\u00e9s', 'über', 'u', 'ü']],
    [['2026-11-22t10:00:00', '2026-11-22t09:59:59', '2026-11-21']],
  ])('sorts %j as < does', (terms) => {
    const order = [...sortedOrder(terms)].map((i) => terms[i]);
    expect(order).toEqual([...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('the Bloom filter', () => {
  const terms = [
    'deprecated',
    'e0502',
    'src/literals.rs:438:9',
    'ab',
    'grüße',
    ...Array.from({ length: 500 }, (_, i) => `tok${i}x`),
  ];
  const filter = bloomOf(terms);
  it('never denies a token or a prefix of one', () => {
    for (const t of terms) {
      expect(mayHold(filter, t, 'exact'), t).toBe(true);
      for (let n = 3; n <= t.length; n++)
        expect(mayHold(filter, t.slice(0, n), 'prefix'), t.slice(0, n)).toBe(true);
    }
  });
  it('denies most words it does not hold', () => {
    const absent = Array.from({ length: 1000 }, (_, i) => `zz${i}q`);
    const passed = absent.filter((w) => mayHold(filter, w, 'exact') || mayHold(filter, w, 'prefix')).length;
    expect(passed).toBeLessThan(100);
  });
});

describe('the trigram filter', () => {
  const compounds = ['econnrefused', 'src/literals.rs:438:9', 'grüße', 'x'];
  const filter = new Uint8Array(trigramFilterBytes(10_000));
  for (const c of compounds) addTrigrams(filter, c);
  it('never denies a piece of a compound', () => {
    for (const c of compounds) {
      for (let a = 0; a < c.length; a++)
        for (let b = a + 3; b <= c.length; b++) expect(gramsMayHold(filter, c.slice(a, b))).toBe(true);
    }
  });
  it('denies most words that are in no compound', () => {
    const passed = Array.from({ length: 200 }, (_, i) => `qq${i}zz`).filter((w) =>
      gramsMayHold(filter, w),
    ).length;
    expect(passed).toBeLessThan(10);
  });
});
