import { describe, expect, it } from 'vitest';
import { scoreLine } from '../../src/summary/salience.js';

describe("an exception's name after a location", () => {
  it('is an error: where a test failed, as a runner sums it up', () => {
    expect(scoreLine('src/attr/_make.py:644: TypeError')).toEqual({ kind: 'error', score: 12 });
    expect(scoreLine('tests/test_x.py:12: AssertionError')).toEqual({ kind: 'error', score: 12 });
    expect(scoreLine('src/a.js:3:4: TypeError: x is not a function')).toEqual({ kind: 'error', score: 12 });
    expect(scoreLine('lib/a.py:12: pkg.errors.ParseError')).toEqual({ kind: 'error', score: 12 });
    // A name that only holds the word, or no location, is not one.
    expect(scoreLine('src/errors.py:12: handle TypeErrors here').score).toBeLessThan(12);
    expect(scoreLine('raise TypeError').score).toBe(0);
  });
});
