import { describe, expect, it } from 'vitest';
import { slotRarity } from '../../src/summary/slots.js';

const keyed = (texts: string[]) => texts.map((text) => ({ text, key: 't1' }));

describe('a column of sizes with as few members as a norm needs', () => {
  it('has its one outlier: the 359 calls among 36 or fewer of eight records', () => {
    // A profiler's leak report, largest first: the leak the fault causes is called far more often.
    const calls = [
      '4.10K leaked over 22 calls from',
      '4.10K leaked over 1 calls from:',
      '2.17K leaked over 359 calls from',
      '807B leaked over 36 calls from:',
      '299B leaked over 30 calls from:',
      '201B leaked over 10 calls from:',
      '147B leaked over 10 calls from:',
      '91B leaked over 7 calls from:',
    ];
    const slot = slotRarity(keyed(calls));
    // Before, a tenth of eight members was no member: the column had no outlier.
    expect(calls.filter((t) => slot.worth(t) > 0)).toEqual(['2.17K leaked over 359 calls from']);
  });

  it('has none when the largest is not far above the next', () => {
    const calls = Array.from({ length: 8 }, (_, i) => `${i + 1}B leaked over ${(i + 1) * 5} calls from`);
    expect(calls.filter((t) => slotRarity(keyed(calls)).worth(t) > 0)).toEqual([]);
  });
});
