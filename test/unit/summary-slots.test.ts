import { describe, expect, it } from 'vitest';
import { slotRarity } from '../../src/summary/slots.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };
const names = ['index', 'about', 'guide', 'api', 'news', 'faq', 'blog', 'docs', 'team', 'shop'];
/** An access log line: a clock that moves, a path that varies, a status and a size. */
const access = (i: number, status = 200) =>
  `2026-11-26T06:${String(10 + (i % 50)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}+0000 [web#info] "127.0.0.1" - - "GET /${names[i % names.length]}-${i}.html HTTP/1.1" ${status} ${100 + ((i * 7919) % 90000)} "-" "Wget/1.21.3"`;
const keyed = (texts: string[]) => texts.map((text) => ({ text, key: 't1' }));

describe('slotRarity', () => {
  it('gives worth to the member whose status breaks its column norm, and none to the others', () => {
    const texts = Array.from({ length: 200 }, (_, i) => access(i, i === 120 ? 500 : 200));
    const slot = slotRarity(keyed(texts));
    expect(slot.worth(texts[120] as string)).toBeGreaterThan(2);
    expect(slot.tag(texts[120] as string)).not.toBe('');
    // Clocks, paths and sizes vary in every member: none of them is a norm broken.
    expect(texts.filter((t, i) => i !== 120 && slot.worth(t) > 0)).toEqual([]);
  });

  it('reads a size by its unit: one MB among kB and B sizes', () => {
    const texts = Array.from(
      { length: 120 },
      (_, i) =>
        `npm notice ${i === 60 ? '4.1MB' : `${(i * 37) % 900}B`} lib/${names[i % names.length]}${i}.js`,
    );
    const slot = slotRarity(keyed(texts));
    expect(slot.worth(texts[60] as string)).toBeGreaterThan(2);
    expect(texts.filter((t) => slot.worth(t) > 0)).toEqual([texts[60]]);
  });

  it('takes a word where the norm is a number for another line, not a rare member', () => {
    const texts = [
      ...Array.from({ length: 60 }, (_, i) => `npm notice ${i}B file${i}.js`),
      'npm notice name: pkg',
    ];
    expect(slotRarity(keyed(texts)).worth('npm notice name: pkg')).toBe(0);
  });

  it('finds the few sizes far above all the others in a column of sizes', () => {
    // Sizes of every unit, none the norm: only the two far above the rest stand out.
    const sizes = ['78B', '112B', '227B', '1.0kB', '1.2kB', '4.8kB', '12.5kB', '31.0kB', '65.3kB', '74.2kB'];
    const texts = Array.from(
      { length: 40 },
      (_, i) => `npm notice ${sizes[i % sizes.length]} lib/${names[i % names.length]}${i}.js`,
    );
    texts.push(
      'npm notice 782.6kB modules/isolate-0x1a64ef90-v8.log',
      'npm notice 4.1MB modules/Heap.heapsnapshot',
    );
    const slot = slotRarity(keyed(texts));
    expect(texts.filter((t) => slot.worth(t) > 0)).toEqual(texts.slice(-2));
    expect(slot.worth(texts[41] as string)).toBeGreaterThan(2);
  });

  it('finds no outlier among sizes that grow by steps, nor in a column of words', () => {
    const steps = Array.from(
      { length: 40 },
      (_, i) => `npm notice ${2 ** (i % 12)}B lib/${names[i % names.length]}${i}.js`,
    );
    expect(steps.filter((t) => slotRarity(keyed(steps)).worth(t) > 0)).toEqual([]);
    const calls = Array.from({ length: 20 }, (_, i) => `${i + 1}B leaked over ${(i % 5) + 3} calls from`);
    calls.push('2.17K leaked over 359 calls from');
    expect(calls.filter((t) => slotRarity(keyed(calls)).worth(t) > 0)).toEqual([
      '2.17K leaked over 359 calls from',
    ]);
  });

  it('finds no norm in a small template', () => {
    const texts = Array.from({ length: 6 }, (_, i) => access(i, i === 3 ? 500 : 200));
    expect(slotRarity(keyed(texts)).worth(texts[3] as string)).toBe(0);
  });
});

describe('summary of a log whose one odd member is in the middle', () => {
  it('shows the one 500 among hundreds of 200s of an access log', () => {
    const lines = Array.from({ length: 400 }, (_, i) => access(i, i === 200 ? 500 : 200));
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain(`201: ${lines[200]}`);
  });
});
