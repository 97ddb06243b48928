import { describe, expect, it } from 'vitest';
import { cleanLine, cleanLines, stripAnsi } from '../../src/summary/clean.js';

describe('cleanLine', () => {
  it.each([
    ['plain text', 'plain text'],
    ['\x1b[1;31merror\x1b[0m: boom', 'error: boom'],
    ['\x1b]0;window title\x07after', 'after'],
    ['\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['\x1b[2J\x1b[Hcleared', 'cleared'],
    ['\x1b[?25lhidden cursor\x1b[?25h', 'hidden cursor'],
    ['progress 10%\rprogress 50%\rprogress 100%', 'progress 100%'],
    ['windows line\r', 'windows line'],
    ['done\r\x1b[K', 'done'],
    ['tab\tkept', 'tab\tkept'],
    ['bell\x07 and nul\x00', 'bell^G and nul^@'],
    ['lone escape \x1b', 'lone escape ^['],
    ['del\x7f', 'del^?'],
    ['c1 \x9b31m csi', 'c1  csi'],
    ['rtl \u202eevil\u202c', 'rtl <U+202E>evil<U+202C>'],
    ['isolate \u2066x\u2069', 'isolate <U+2066>x<U+2069>'],
    ['emoji ✓ and 漢字', 'emoji ✓ and 漢字'],
  ])('%j → %j', (input, expected) => {
    expect(cleanLine(input)).toBe(expected);
  });
});

describe('cleanLines', () => {
  it.each([
    ['', []],
    ['a\nb\n', ['a', 'b']],
    ['a\nb', ['a', 'b']],
    ['a\n\nb\n', ['a', '', 'b']],
    ['a\r\nb\r\n', ['a', 'b']],
  ])('%j → %j', (input, expected) => {
    expect(cleanLines(input)).toEqual(expected);
  });
});

it('stripAnsi leaves text without escapes untouched', () => {
  expect(stripAnsi('no escapes [31m here')).toBe('no escapes [31m here');
});
