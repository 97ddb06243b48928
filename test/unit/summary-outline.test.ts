import { describe, expect, it } from 'vitest';
import { outlineOf } from '../../src/summary/outline.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 0, durationMs: 2500 };
const files = ['core', 'parser', 'testing', 'termui', 'decorators', 'exceptions', 'types', 'utils'];
const words = 'value option command context param default prompt choice error message help name'.split(' ');

/** A combined diff of eight files: each a header of four lines and a hunk of varied code. */
function diff(): string[] {
  const out: string[] = [];
  let seed = 11;
  const pick = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return words[seed % words.length] as string;
  };
  files.forEach((f, i) => {
    out.push(
      `diff --cc src/pkg/${f}.py`,
      `index ${(0xabc123 + i).toString(16)},${(0xdef456 + i).toString(16)}..00000000`,
    );
    out.push(
      `--- a/src/pkg/${f}.py`,
      `+++ b/src/pkg/${f}.py`,
      `@@@ -${i * 40},8 -${i * 41},11 +${i * 42},15 @@@`,
    );
    for (let k = 0; k < 60; k++) {
      const mark = ['  ', ' +', '+ ', ' -'][k % 4];
      out.push(`${mark}    ${pick()}_${k} = ${pick()}(${pick()}, ${pick()}=${k}) # ${pick()} ${pick()}`);
    }
  });
  return out;
}

describe('outlineOf', () => {
  it('finds the few unindented lines that open sections, not the header lines under them', () => {
    const lines = diff();
    const keyOf = (t: string) =>
      t.startsWith('diff') ? 'd' : t.startsWith('index') ? 'i' : t.startsWith('---') ? 'm' : 'x';
    const out = outlineOf(lines.map((text, i) => ({ line: i + 1, text, key: keyOf(text), sev: 0 })));
    expect([...out].map((n) => lines[n - 1])).toEqual(files.map((f) => `diff --cc src/pkg/${f}.py`));
  });

  it('finds none in a listing of many alike lines, nor among errors', () => {
    const listing = Array.from({ length: 300 }, (_, i) => ({
      line: i + 1,
      text: `Inst pkg${i} (1.${i})`,
      key: 'a',
      sev: 0,
    }));
    expect(outlineOf(listing).size).toBe(0);
    const errors = [1, 100, 200].map((line) => ({
      line,
      text: `Error: bad thing ${line}`,
      key: 'e',
      sev: 12,
    }));
    expect(outlineOf([...errors, { line: 300, text: 'x', key: 'z', sev: 0 }]).size).toBe(0);
  });
});

describe('summary of a diff of many files', () => {
  it('names every file, however much of each hunk says "error"', () => {
    const out = summarize(diff().join('\n'), facts);
    for (const f of files) expect(out).toContain(`diff --cc src/pkg/${f}.py`);
  });
});
