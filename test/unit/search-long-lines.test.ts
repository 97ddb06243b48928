import { describe, expect, it } from 'vitest';
import { LONG_LINES, longLined } from '../../src/search/long-lines.js';
import type { Entry } from '../../src/store/registry.js';

const entry = (meta: { bytes?: number; storedBytes?: number; lines?: number }): Entry =>
  ({ meta: { id: 'x_00000000', ...meta }, state: 'complete', startedMs: 0 }) as unknown as Entry;

describe('outputs of very long lines go to the JS scan (issue 20 #13)', () => {
  it('takes an output whose lines are a MiB long on average, not one of ordinary lines', () => {
    expect(longLined(entry({ bytes: 1 << 30, lines: 1 }))).toBe(true);
    expect(longLined(entry({ bytes: 20 * LONG_LINES, lines: 20 }))).toBe(true);
    expect(longLined(entry({ bytes: 20 * LONG_LINES, lines: 21 }))).toBe(false);
    expect(longLined(entry({ bytes: 100 << 20, lines: 1_300_000 }))).toBe(false);
  });

  it('goes by the bytes stored when the output was cut, and leaves a running one to the engine', () => {
    expect(longLined(entry({ bytes: 1 << 30, storedBytes: 1 << 19, lines: 1 }))).toBe(false);
    expect(longLined(entry({ bytes: 1 << 30 }))).toBe(false);
    expect(longLined(entry({}))).toBe(false);
    expect(longLined(entry({ bytes: 0, lines: 0 }))).toBe(false);
  });
});
