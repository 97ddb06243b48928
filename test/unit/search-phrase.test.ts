// phraseOf: the query words in order, side by side. It tests its regex only on lines that hold
// every word; the answer must be the regex's on every line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phraseOf } from '../../src/search/groups.js';
import { cleanLine } from '../../src/summary/clean.js';

const WORDS = ['connection', 'refused', 'postgres', '4.1.12', 'tail', 'ratio', 'café'];
const BETWEEN = [' ', '_', '-', '"', '": "', ' x ', '', 'é', '\x1b[31m', '\u00a0', ', '];

describe('phraseOf', () => {
  it('says what the whole regex says, on lines with and without every word', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 3 }),
        fc.array(
          fc.tuple(
            fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[a-zA-Z0-9 .]{0,6}$/)),
            fc.constantFrom(...BETWEEN),
            fc.boolean(),
          ),
          { maxLength: 8 },
        ),
        (tokens, parts) => {
          const line = parts.map(([w, sep, up]) => (up ? w.toUpperCase() : w) + sep).join('');
          const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          const re = new RegExp(tokens.map(esc).join('[^\\p{L}\\p{N}]{1,3}'), 'u');
          expect(phraseOf(tokens)!(line)).toBe(re.test(cleanLine(line).toLowerCase()));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the words in order, side by side, and not apart or out of order', () => {
    const phrase = phraseOf(['connection', 'refused'])!;
    expect(phrase('psql: Connection refused (postgres)')).toBe(true);
    expect(phrase('test_connection_refused ... ok')).toBe(true);
    expect(phrase('connection was refused')).toBe(false);
    expect(phrase('refused connection')).toBe(false);
    expect(phraseOf(['connection'])).toBeUndefined();
  });
});
