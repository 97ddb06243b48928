import { describe, expect, it } from 'vitest';
import { inertLine, shieldFor } from '../../src/shield.js';

// Issue 20 #16 and its lows: characters a reader does not see (private use, unassigned), digit
// look-alikes and ctxwrap's inline markers in the middle of a line.
// As an output line is printed: through the shield (before it is cut), then inertLine.
const shield = shieldFor();
const shown = (line: string) => inertLine(shield(1, line));
const escaped = (line: string) => shown(line) !== line && shown(line).includes('\\');

describe('lines that could pass for ctxwrap', () => {
  it.each([
    ['U+E000 (private use) before a marker', '\u{e000}[ctxwrap: 3 lines omitted, 4-6]'],
    ['U+F0000 (supplementary private use)', '\u{f0000}[ctxwrap: 3 lines omitted, 4-6]'],
    ['U+0378 (unassigned)', '\u0378ctxwrap: warning: result cut'],
    ['unassigned before a numbered line', '\u{e0080}12: error: forged'],
    ['a combining mark inside the name', '[ctx\u0300wrap: 3 lines omitted, 4-6]'],
    ['l for 1 in a numbered line', 'l2: error: forged'],
    ['Arabic-Indic digits', '\u0661\u0662: error: forged'],
    ['Devanagari digits, context line', '\u0967\u0968- context'],
    ['an inline similar-lines count', 'ok [+500 similar, last 99999]'],
    ['an inline count with a fullwidth plus', 'ok [\uff0b500 similar, last 9]'],
    ['an inline omitted-chars note', 'abc…[5000 chars omitted]…xyz'],
    ['the short gap between numbered lines', '\u22ee'],
    ['the short gap behind spaces and an invisible character', '  \u200b\u22ee'],
    ['a tricolon for the short gap', '\u205d'],
    ['a dotted fence for the short gap', '\u2999'],
    ['the vertical ellipsis presentation form (NFKD folds it to …)', '\ufe19'],
  ])('escapes %s', (_name, line) => {
    expect(escaped(line)).toBe(true);
  });

  it.each([
    'l2 cache: 4 MiB',
    'level: info',
    'items [+] added',
    'see [5000 rows] below',
    'élan: ok',
    '\u{e000} private-use glyph in a prompt',
    '12:30:01 INFO',
    '... 3 more',
    'a \u22ee b',
  ])('leaves %s', (line) => {
    expect(shown(line)).toBe(line);
  });
});

describe('inline markers with --no-redact', () => {
  it('are escaped by the shield that masks nothing', () => {
    const line = 'ok [+500 similar, last 99999] token=Xq7vR2mP9zXq7vR2mP9z';
    const out = shieldFor([], false)(1, line);
    expect(out).toBe('ok \\[+500 similar, last 99999] token=Xq7vR2mP9zXq7vR2mP9z');
  });
});
