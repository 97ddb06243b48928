import { describe, expect, it } from 'vitest';
import { continues } from '../../src/summary/blocks.js';
import { summarize } from '../../src/summary/summarize.js';

describe('a message wrapped onto the next line', () => {
  it('is read as the rest of it: deeper, after a line not ended by punctuation', () => {
    const error = '  216 | ERROR | [ ] Visibility must be declared on method';
    expect(continues(error, '     |       |     "throwableToString"')).toBe(true);
    expect(continues(error, '  217 | ERROR | [ ] Another finding')).toBe(false);
    expect(continues('  216 | ERROR | [ ] Header blocks must be separated.', '     |       |     line')).toBe(
      false,
    );
    expect(continues('error: cannot open file', 'next command')).toBe(false);
  });

  it('comes with an error of the middle', () => {
    const files = Array.from({ length: 1000 }, (_, i) => [
      `FILE: /src/Framework/File${i}.php`,
      '----------------------------------------------------------------------',
      'FOUND 1 ERROR AFFECTING 1 LINE',
      '----------------------------------------------------------------------',
      i === 500
        ? '  216 | ERROR | [ ] Visibility must be declared on method'
        : `   1 | ERROR | [x] Header blocks must be separated by a single blank`,
      i === 500 ? '     |       |     "throwableToString"' : '     |       |     line',
      '----------------------------------------------------------------------',
      '',
    ]).flat();
    const out = summarize(files.join('\n'), { exitCode: 2 });
    expect(out).toContain('Visibility must be declared on method');
    expect(out).toContain('"throwableToString"');
  });
});
