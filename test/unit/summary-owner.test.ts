import { describe, expect, it } from 'vitest';
import { candidate } from '../../src/summary/collected.js';
import { addContext } from '../../src/summary/line-context.js';

/** The owner found for the last of `lines` (numbered from 1), read from the lines before it. */
function ownerOf(lines: string[]) {
  const text = lines[lines.length - 1] as string;
  const c = candidate(text, lines.length, text, 'error', 12, false, false);
  addContext(c, () => Buffer.from(`${lines.slice(0, -1).join('\n')}\n`));
  return c.owner;
}

describe("an indented error's owner", () => {
  it('is the file a report names above its rules and counts, not a rule of dashes', () => {
    const owner = ownerOf([
      '',
      'FILE: /src/Framework/TestBuilder.php',
      '----------------------------------------------------------------------',
      'FOUND 10 ERRORS AFFECTING 8 LINES',
      '----------------------------------------------------------------------',
      '   1 | ERROR | [x] Opening PHP tag must be on a line by itself',
      '  216 | ERROR | [ ] Visibility must be declared on method',
    ]);
    expect(owner).toEqual({ line: 2, text: 'FILE: /src/Framework/TestBuilder.php' });
  });

  it('is the nearest unindented line when it names the file, and never past a blank line', () => {
    expect(ownerOf(['src/a.js', '  1:1  error  x is not defined', '  2:1  error  y is not defined'])).toEqual(
      {
        line: 1,
        text: 'src/a.js',
      },
    );
    expect(ownerOf(['src/a.js', '', 'Summary of checks', '  error  too many problems'])).toEqual({
      line: 3,
      text: 'Summary of checks',
    });
  });
});

describe("an unlocated error's title", () => {
  it('is the line right above it when that names a location', () => {
    const lines = [
      '+++ OK, passed 1 test.',
      '',
      '=== prop_checkCharRangeGlob3 from src/ShellCheck/Analytics.hs:2756 ===',
      '*** Failed! Falsified (after 1 test):',
    ];
    const c = candidate(lines[3] as string, 4, 'x', 'error', 12, false, false);
    addContext(c, () => Buffer.from(`${lines.slice(0, 3).join('\n')}\n`));
    expect(c.owner).toEqual({ line: 3, text: lines[2] });
  });

  it('is not sought two lines up, nor for an error that names its own place', () => {
    const far = ['src/a.hs:3:1 checked', 'all good', '*** Failed! Falsified (after 1 test):'];
    const c = candidate(far[2] as string, 3, 'x', 'error', 12, false, false);
    addContext(c, () => Buffer.from(`${far.slice(0, 2).join('\n')}\n`));
    expect(c.owner).toBeUndefined();
    const own = candidate('src/b.c:9:2: error: x undeclared', 2, 'x', 'error', 12, false, false);
    addContext(own, () => Buffer.from('src/b.c:8:1: note: in this function\n'));
    expect(own.owner).toBeUndefined();
  });
});
