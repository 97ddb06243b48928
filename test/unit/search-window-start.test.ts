import { describe, expect, it } from 'vitest';
import { showLine } from '../../src/search/format.js';

describe('a window into a long line', () => {
  it('starts where the JSON key holding the match begins, not inside it, wherever the key sits', () => {
    const needle = `"err":{"type":"TypeError","message":"Cannot read properties of undefined (reading 'amount')"`;
    const tokenSets = [['typeerror'], ['amount', 'typeerror', 'cannot', 'read', 'properties', 'undefined']];
    for (let pad = 0; pad < 80; pad += 3) {
      const text = `{"level":50,${'"k":"v",'.repeat(30)}"pad":"${'p'.repeat(pad)}",${needle},"stack":"${'x'.repeat(900)}"}`;
      for (const tokens of tokenSets)
        for (let cap = 120; cap < 320; cap += 7) {
          const shown = showLine({ text }, tokens, cap);
          // Each window begins after a comma, brace or space of the line where one is near: a key
          // is shown whole.
          for (const piece of shown.split(/…\[[^\]]* cut\]…/).filter(Boolean)) {
            const at = text.indexOf(piece);
            const near = /[\s,;{[(]/.test(text.slice(Math.max(0, at - 20), at + 20));
            const ok = at === 0 || !near || /[\s,;{[(]/.test(text[at - 1]!);
            expect(ok, `pad ${pad} cap ${cap} ${tokens}: ${piece}`).toBe(true);
          }
          if (cap >= 200 && tokens.length === 1) expect(shown).toContain(needle);
        }
    }
  });

  it('starts at the line start when only a few characters would be cut there', () => {
    const text = `\t\t<testcase name="when variadic argument then usage shows variadic" time="0.001174" classname="test" failure="${'e'.repeat(300)}">`;
    expect(showLine({ text }, ['variadic', 'usage'])).toMatch(
      /^\t\t<testcase name="when variadic argument then usage shows variadic"/,
    );
  });

  it('still starts at the match in a line without spaces or punctuation near it', () => {
    const text = `${'a'.repeat(500)}needle${'b'.repeat(500)}`;
    const shown = showLine({ text }, ['needle']);
    expect(shown).toMatch(/^…\[\d+ bytes cut\]…a+needleb+…\[\d+ bytes cut\]…$/);
  });
});
