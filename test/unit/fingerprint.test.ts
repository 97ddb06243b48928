import { describe, expect, it } from 'vitest';
import { type Fingerprint, parseFingerprint, serializeFingerprint } from '../../src/summary/fingerprint.js';

const fp = (exact: number[]): Fingerprint => ({
  exact,
  exactMax: 0xffffffff,
  digits: [],
  digitsMax: 0,
  salient: [],
});

describe('the stored fingerprint', () => {
  it('stores each exact hash as 8 lower-case hex digits, in order, and reads them back', () => {
    const hashes = [0, 1, 0xdeadbeef, 0xffffffff, 0x0000abcd];
    const stored = JSON.parse(serializeFingerprint(fp(hashes)));
    expect(stored.e).toBe('0000000000000001deadbeefffffffff0000abcd');
    expect(parseFingerprint(stored)?.exact).toEqual(hashes);
  });

  it('reads a damaged hash string up to its first character that is not a hex digit', () => {
    const stored = JSON.parse(serializeFingerprint(fp([1, 2, 3])));
    expect(parseFingerprint({ ...stored, e: '00000001000000zz00000003' })?.exact).toEqual([1]);
    expect(parseFingerprint({ ...stored, e: '0000000100000002000' })?.exact).toEqual([1, 2]);
    expect(parseFingerprint({ ...stored, e: '' })?.exact).toEqual([]);
  });
});
