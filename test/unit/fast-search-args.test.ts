import { describe, expect, it } from 'vitest';
import { parseFastSearchArgs } from '../../src/cli/fast-search.js';

describe('parseFastSearchArgs', () => {
  it('takes the simple forms: options before and after the words, --run-dir on either side, --', () => {
    expect(parseFastSearchArgs(['--run-dir', 'D', 'search', 'a', '--limit', '3', 'b', '--json'])).toEqual({
      words: ['a', 'b'],
      runDir: 'D',
      limit: '3',
      json: true,
      redact: true,
    });
    expect(
      parseFastSearchArgs(['search', '--id', 'x_1', '--in', 't*', '--max-chars', '900', '--no-redact', 'w']),
    ).toEqual({ words: ['w'], id: 'x_1', in: 't*', maxChars: '900', json: false, redact: false });
    // After --, everything is a word; a lone - is a word too.
    expect(parseFastSearchArgs(['search', '-', '--', '--json', '-x'])?.words).toEqual(['-', '--json', '-x']);
    // The subcommand's --run-dir wins over the program's, as in commander.
    expect(parseFastSearchArgs(['--run-dir', 'A', 'search', '--run-dir', 'B', 'w'])?.runDir).toBe('B');
  });

  it('leaves everything else to commander', () => {
    for (const argv of [
      ['search'],
      ['search', '--json'],
      ['search', '--help'],
      ['search', '-h', 'w'],
      ['search', '--limit=3', 'w'],
      ['search', '--colour', 'w'],
      ['search', 'w', '--limit'],
      ['--run-dir'],
      ['--run-dir', 'D', 'read', 'w'],
      ['--json', 'search', 'w'],
      ['list'],
    ])
      expect(parseFastSearchArgs(argv), argv.join(' ')).toBeUndefined();
  });
});
