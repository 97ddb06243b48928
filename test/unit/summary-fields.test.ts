import { describe, expect, it } from 'vitest';
import { fieldRarity, recordHeader } from '../../src/summary/fields.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 900 };
const LICENSES = ['MIT', 'MIT', 'MIT', 'ISC', 'MIT', 'BSD-3-Clause', 'MIT', 'Apache-2.0', 'MIT', 'ISC'];

/** A listing of packages, a record of named fields each, as a license or package report prints. */
function listing(n: number, odd?: { at: number; license: string }): string[] {
  return Array.from({ length: n }, (_, i) => [
    `├─ pkg-${i}-${'abcdefghij'[i % 10]}@${1 + (i % 4)}.${i % 7}.${i % 3}`,
    `│  ├─ licenses: ${odd?.at === i ? odd.license : (LICENSES[i % LICENSES.length] as string)}`,
    `│  ├─ repository: https://github.com/owner${i}/pkg-${i}`,
    `│  ├─ publisher: Person Number${i}`,
    `│  ├─ path: /work/app/node_modules/pkg-${i}`,
    `│  └─ licenseFile: /work/app/node_modules/pkg-${i}/LICENSE`,
  ]).flat();
}

describe("a field's rare value", () => {
  it("makes a line whose field's value is seen once worth more, in a field of few values for many lines", () => {
    const lines = listing(60, { at: 33, license: 'LGPL-2.1-or-later' });
    const fields = fieldRarity(lines);
    expect(fields.worth('│  ├─ licenses: LGPL-2.1-or-later')).toBe(4);
    expect(fields.tag('│  ├─ licenses: LGPL-2.1-or-later')).not.toBe('');
    expect(fields.worth('│  ├─ licenses: MIT')).toBe(0);
    // Fields of names, paths or addresses (all different) have no norm to break.
    expect(fields.worth('│  ├─ publisher: Person Number7')).toBe(0);
    expect(fields.worth('│  ├─ path: /work/app/node_modules/pkg-7')).toBe(0);
    // Nor have a few lines.
    expect(fieldRarity(listing(3, { at: 1, license: 'GPL-3.0' })).worth('│  ├─ licenses: GPL-3.0')).toBe(0);
  });

  it('shows the one package of a rare license among hundreds in a listing that exited 0', () => {
    const lines = listing(400, { at: 233, license: 'LGPL-2.1-or-later' });
    const out = summarize(lines.join('\n'), facts);
    expect(out).toContain('licenses: LGPL-2.1-or-later');
    // ...with the record's header above it: which package.
    expect(out).toContain('├─ pkg-233-d@');
  });

  it("finds a field's record header across the tree's branches, in its paragraph", () => {
    const lines = ['├─ mariadb@3.5.4', '│  ├─ licenses: LGPL-2.1-or-later', '', '│  ├─ path: /x'];
    expect(recordHeader((n) => lines[n - 1], 2)).toEqual([1]);
    expect(recordHeader((n) => lines[n - 1], 4)).toEqual([]);
  });
});
