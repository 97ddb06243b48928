import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

// Issue 21: `summarize(text)` with one argument crashed with a TypeError from deep inside
// (reading 'exitCode' of undefined), after the bundle dumped its minified source.
describe('summarize as a library', () => {
  it('takes the output alone: a small one comes back whole, a large one summarised', () => {
    expect(summarize('hello\nworld\n')).toBe('hello\nworld\n');
    const big = `${Array.from({ length: 3000 }, (_, i) => `step ${i} ok`).join('\n')}\nerror: it broke\n`;
    const text = summarize(big);
    expect(text).toMatch(/^\[ctxwrap output\] exit 0 · 3,001 lines/);
    expect(text).toContain('error: it broke');
    expect(summarize(big, { id: 'tool_1', exitCode: 2 })).toMatch(/^\[ctxwrap tool_1\] exit 2 · /);
  });

  it.each([
    [[42], /^ctxwrap summarize: the output must be a string or a Uint8Array \(got number\)$/],
    [['x', 'id'], /^ctxwrap summarize: the facts must be an object .* \(got string\)$/],
    [['x', {}, null], /^ctxwrap summarize: the options must be an object .* \(got null\)$/],
    [
      ['x', {}, { budget: -5 }],
      /^ctxwrap summarize: options\.budget must be a positive number .* \(got number\)$/,
    ],
  ])('a bad call %j gets a one-line TypeError', (args, message) => {
    expect(() => (summarize as (...a: unknown[]) => string)(...args)).toThrow(TypeError);
    expect(() => (summarize as (...a: unknown[]) => string)(...args)).toThrow(message);
  });
});
