import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWords, parseShell, ShellParseError } from '../../src/hook/shell-words.js';

// Every whitespace character JavaScript knows, plus the ones the hook once looped on.
const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff', '\r\n'];
// bash's reserved words that the word pattern below can produce.
const BASH_RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'time',
  'in',
  'case',
  'esac',
  'for',
  'select',
  'function',
]);
const SHELLISH = [
  ...WHITESPACE,
  ';',
  '&',
  '&&',
  '|',
  '||',
  '|&',
  '(',
  ')',
  '<',
  '>',
  '2>&1',
  '<<',
  '<<-',
  '<<<',
  '$(',
  '${',
  '`',
  "'",
  '"',
  "$'",
  '\\',
  '#',
  '=',
  'EOF',
  'echo',
  'a',
];
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SHELLISH) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const line = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

/** Parses with a generous deadline, so that only a loop (never a slow machine) can trip it. */
function parses(text: string): 'ok' | 'refused' {
  try {
    parseShell(text, 5000);
    return 'ok';
  } catch (error) {
    if (error instanceof ShellParseError) return 'refused';
    throw error;
  }
}

describe('parseShell always ends', () => {
  it('returns or refuses any line of shell-like pieces and whitespace, never loops or throws anything else', () => {
    fc.assert(
      fc.property(line, (text) => {
        const started = performance.now();
        const result = parses(text);
        expect(['ok', 'refused']).toContain(result);
        // A loop would be stopped by the 5 s deadline; a real parse of 40 pieces takes microseconds.
        expect(performance.now() - started).toBeLessThan(4000);
      }),
      { numRuns: 3000 },
    );
  });

  it('consumes every word: plain words joined by any whitespace come back, bash-style', () => {
    const word = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/);
    const blank = fc.constantFrom(' ', '\t', ' \t ');
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        blank,
        fc.constantFrom('', '\n', '\r\n', '\r', '\v', '\f', '\u00a0'),
        (words, sep, ending) => {
          // A leading reserved word (`in a`, `do x`) is not a command word: bash reads `in a` as a syntax error.
          fc.pre(!BASH_RESERVED.has(words[0] ?? ''));
          const parsed = parseShell(words.join(sep) + ending, 5000);
          const got = parsed.commands.flatMap((c) => commandWords(c).map((w) => w.text));
          // bash's metacharacters end words; \r, \v, \f and U+00A0 are part of the last one.
          const expected = [...words];
          if (ending !== '' && ending !== '\n') expected[expected.length - 1] += ending.replace(/\n$/, '');
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each(['echo hi\r\n', 'ls\v-la', 'ls\f', 'echo\u00a0x', 'npm test\r\n\r\n'])(
    'reads %j as bash does, at once',
    (text) => {
      expect(parses(text)).toBe('ok');
    },
  );

  it('refuses a line longer than the limit instead of reading it', () => {
    expect(() => parseShell(`echo ${'a'.repeat(300 * 1024)}`)).toThrow(ShellParseError);
  });

  it('stops at the deadline', () => {
    // A deadline already past: the first check (after 1024 steps) refuses the line.
    expect(() => parseShell('a '.repeat(5000), -1)).toThrow(/too long to read/);
  });
});
