import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };

/** A listing of packages as JSON records; one of them cannot import a package. */
function listing(): string {
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    out.push(
      '{',
      `\t"Dir": "/src/toml/internal/p${i}",`,
      `\t"ImportPath": "example.com/toml/internal/p${i}",`,
    );
    out.push(`\t"Name": "p${i}",`, '\t"GoFiles": [', `\t\t"p${i}.go",`, `\t\t"p${i}_util.go"`, '\t],');
    if (i === 21)
      out.push(
        '\t"DepsErrors": [',
        '\t\t{',
        '\t\t\t"ImportStack": [',
        '\t\t\t\t"example.com/toml/internal/p21"',
        '\t\t\t],',
        '\t\t\t"Pos": "internal/p21/rm.go:8:2",',
        '\t\t\t"Err": "no required module provides package example.com/toml/internal/tz; to add it:"',
        '\t\t}',
        '\t],',
      );
    out.push(`\t"Imports": [`, '\t\t"fmt",', '\t\t"strings"', '\t]', '}');
  }
  return out.join('\n');
}

describe('an error that names no place', () => {
  it('comes with the line right above it, at its indentation, that names one', () => {
    const out = summarize(listing(), facts, { budget: 1500 });
    expect(out).toContain('"Err": "no required module provides package');
    // Before, the error came alone, and where the bad import is was left out.
    expect(out).toContain('"Pos": "internal/p21/rm.go:8:2",');
  });
});
