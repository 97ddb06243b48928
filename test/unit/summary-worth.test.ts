import { describe, expect, it } from 'vitest';
import { locationWorth, severity } from '../../src/summary/worth.js';

describe('the worth of a location', () => {
  it("in the project's own files is worth at least what a warning's severity is: it says where to look", () => {
    const own = locationWorth('include/mbedtls/ssl.h:1989: argument of command @param is not found');
    expect(own).toBeGreaterThanOrEqual(severity('warning: argument of command @param is not found', false));
    // A dependency's location says less.
    expect(locationWorth('node_modules/x/index.js:3:1: y')).toBeLessThan(own);
  });
});
