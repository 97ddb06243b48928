import { describe, expect, it } from 'vitest';
import { messageRarity } from '../../src/summary/messages.js';
import { scoreLine } from '../../src/summary/salience.js';
import { summarize } from '../../src/summary/summarize.js';

const roles = ['doc', 'ref', 'class', 'func', 'meth', 'data', 'attr', 'mod', 'exc', 'term'];
const finding = (i: number) =>
  i % 9 === 0
    ? `docs/p${i % 13}.rst:${i + 3}: (ERROR/3) Unknown directive type "${roles[i % 10]}x".`
    : `docs/p${i % 13}.rst:${i + 3}: (ERROR/3) Unknown interpreted text role "${roles[i % 10]}".`;

describe('rare messages of findings in their own words', () => {
  it('makes a finding whose message words are seen once worth more, whatever names it quotes', () => {
    const lines = Array.from({ length: 300 }, (_, i) => ({ text: finding(i), count: 1 }));
    lines.push({
      text: 'docs/patterns/celery.rst:58: (ERROR/3) Unknown target name: "configuration".',
      count: 1,
    });
    lines.push({ text: 'docs/api.rst:7: (WARNING/2) Title underline too short.', count: 1 });
    const rarity = messageRarity(lines);
    expect(rarity.worth('docs/patterns/celery.rst:58: (ERROR/3) Unknown target name: "configuration".')).toBe(
      4,
    );
    expect(
      rarity.tag('docs/patterns/celery.rst:58: (ERROR/3) Unknown target name: "configuration".'),
    ).not.toBe('');
    expect(rarity.worth(finding(4))).toBe(0);
    expect(rarity.tag(finding(4))).toBe('');
    expect(rarity.worth('Unknown target name: "configuration".')).toBe(0);
  });

  it('reads the message after a severity label where a finding names no place first (`ERROR: …`)', () => {
    const tags = ['param', 'returns', 'type', 'throws'];
    const lines = Array.from({ length: 40 }, (_, i) => ({
      text:
        i % 8 === 0
          ? `ERROR: cannot create a doclet for the comment "/** @constructor F${i} */": Unexpected token`
          : i % 5 === 0
            ? `WARNING: The @${tags[i % 4]} tag is not a known tag in /src/f${i}.js`
            : `ERROR: Unable to parse a tag's type expression for source file /src/f${i}.js in line ${i} with tag title "${tags[i % 4]}"`,
      count: 1,
    }));
    const rare = 'ERROR: Unable to parse /src/function/lcm.js: Unexpected token, expected ")" (84:33)';
    lines.push({ text: rare, count: 1 });
    const rarity = messageRarity(lines);
    expect(rarity.worth(rare)).toBeGreaterThan(0);
    expect(rarity.worth(lines[1]?.text as string)).toBe(0);
  });

  it('says nothing when the messages hold names in their first words, or are too few', () => {
    const named = Array.from({ length: 60 }, (_, i) => ({
      text: `src/a${i}.c:${i}: var_${i} set but unused`,
      count: 1,
    }));
    expect(messageRarity(named).worth('src/a7.c:7: var_7 set but unused')).toBe(0);
    const few = [finding(1), finding(2), 'docs/a.rst:3: (ERROR/3) Unknown target name: "x".'];
    expect(messageRarity(few.map((text) => ({ text, count: 1 }))).worth(few[2] as string)).toBe(0);
  });

  it('shows the one finding of its kind among hundreds that differ only in their quoted names', () => {
    const lines = Array.from({ length: 1500 }, (_, i) => [
      finding(i),
      '',
      `.. ${roles[i % 10]}:: x${i}`,
      '',
    ]).flat();
    lines.splice(3000, 0, 'docs/patterns/celery.rst:58: (ERROR/3) Unknown target name: "configuration".');
    const out = summarize(lines.join('\n'), {
      id: 'unit_0123abcd',
      path: '/runs/u.txt',
      exitCode: 0,
      durationMs: 9,
    });
    expect(out).toContain('(ERROR/3) Unknown target name: "configuration".');
  });
});

describe("a finding's level in one letter", () => {
  it('reads W as a warning and E or F as an error after a place, and C or R as nothing', () => {
    expect(
      scoreLine(
        'lib/addressable/uri.rb:1820:9: W: Lint/UselessAssignment: Useless assignment to variable - x.',
      ).kind,
    ).toBe('warning');
    expect(scoreLine('lib/a.rb:3:1: E: Lint/Syntax: unexpected token kEND').kind).toBe('error');
    expect(scoreLine('lib/a.rb:3:1: F: Lint/Syntax: unexpected token').kind).toBe('error');
    expect(
      scoreLine('lib/a.rb:3:1: C: [Correctable] Style/StringLiterals: Prefer single-quoted strings.').score,
    ).toBe(0);
    expect(scoreLine('W: something else').score).toBe(0);
  });

  it('shows a warning among thousands of conventions in the middle of a long output', () => {
    const conv = (i: number) => [
      `lib/a/uri.rb:${i + 1}:${(i % 40) + 1}: C: [Correctable] Style/StringLiterals: Prefer single-quoted strings when you don't need interpolation.`,
      `    x${i} = "value ${i}"`,
      '        ^^^^^^^^^^',
    ];
    const lines = Array.from({ length: 6000 }, (_, i) => conv(i)).flat();
    lines.splice(
      9000,
      0,
      'lib/a/uri.rb:1820:9: W: Lint/UselessAssignment: Useless assignment to variable - fragment_component.',
    );
    lines.push('', '7 files inspected, 6001 offenses detected');
    const out = summarize(lines.join('\n'), {
      id: 'unit_0123abcd',
      path: '/runs/u.txt',
      exitCode: 1,
      durationMs: 9,
    });
    expect(out).toContain('W: Lint/UselessAssignment: Useless assignment to variable - fragment_component.');
  });
});
