import { describe, expect, it } from 'vitest';
import { kindRarity } from '../../src/summary/kinds.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 65, durationMs: 900 };

describe('kinds of findings in their own words', () => {
  it('makes a line whose kind is seen once worth more, in a column of few kinds for many lines', () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, i) => `I: pkg-${i % 4}: hardening-no-bindnow [usr/lib/x${i}.so]`),
      ...Array.from({ length: 12 }, (_, i) => `I: pkg-${i % 4}: unused-override extra-license-file`),
      'I: pkg-1: spelling-error-in-description approch approach',
    ];
    const kinds = kindRarity(lines);
    expect(kinds.worth('I: pkg-1: spelling-error-in-description approch approach')).toBe(4);
    expect(kinds.tag('I: pkg-1: spelling-error-in-description approch approach')).not.toBe('');
    expect(kinds.worth('I: pkg-2: hardening-no-bindnow [usr/lib/x3.so]')).toBe(0);
    expect(kinds.tag('I: pkg-2: hardening-no-bindnow [usr/lib/x3.so]')).toBe('');
  });

  it('finds no kinds in a column of names, nor among too few lines', () => {
    const names = Array.from(
      { length: 60 },
      (_, i) => `  ✓ renders item${String.fromCharCode(97 + (i % 26))}${i} fine`,
    );
    expect(kindRarity(names).worth(names[7] as string)).toBe(0);
    const few = ['a.c:1: crate ==> create', 'a.c:2: crate ==> create', 'a.c:3: guarenteed ==> guaranteed'];
    expect(kindRarity(few).worth('a.c:3: guarenteed ==> guaranteed')).toBe(0);
  });

  it('shows the misspellings seen once among a thousand of a few false positives', () => {
    const common = ['crate ==> create', 'lits ==> list', 'strat ==> start, strata', 'fo ==> of, for, to'];
    const lines = Array.from(
      { length: 1200 },
      (_, i) =>
        `./crates/c${i % 9}/src/mod${i % 13}.rs:${(i * 7) % 900}: ${common[i % 11 === 0 ? 1 + (i % 3) : 0]}`,
    );
    lines.splice(300, 0, './regex-lite/src/string.rs:27: guarenteed ==> guaranteed');
    lines.splice(900, 0, './regex-automata/src/meta/regex.rs:957: seperate ==> separate');
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('guarenteed ==> guaranteed');
    expect(out).toContain('seperate ==> separate');
  });
});
