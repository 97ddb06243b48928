import { describe, expect, it } from 'vitest';
import { scoreLine } from '../../src/summary/salience.js';
import { decayOf, PLAIN_DECAY } from '../../src/summary/worth.js';

describe('what is left of a failure line per alike one shown', () => {
  it("is an error's when the line says it failed at its start or by a status mark", () => {
    const lines = [
      "#   Failed test 'query_form'",
      'csv-2.1 join FAILED',
      'Invalid integer "+0": cannot have leading zeroes',
    ];
    for (const text of lines) {
      const sev = scoreLine(text).score;
      expect(decayOf(sev, false, 4)).toBeGreaterThan(PLAIN_DECAY);
    }
    // A word in a sentence (score 4) and a warning stay plain.
    expect(decayOf(scoreLine('Test ALEXANDRIA-TESTS::IOTA.3 failed').score, false, 4)).toBe(PLAIN_DECAY);
    expect(decayOf(scoreLine('warning: unused variable x').score, false, 4)).toBe(PLAIN_DECAY);
  });
});
