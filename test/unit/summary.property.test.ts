import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanLines } from '../../src/summary/clean.js';
import { Collector } from '../../src/summary/collector.js';
import { buildSummary, inert, type RunFacts, renderSummary } from '../../src/summary/render.js';
import { keepBytesFor, summarize, summarizeModel } from '../../src/summary/summarize.js';

const facts: RunFacts = {
  id: 'prop_0123abcd',
  path: '/runs/tool_results/prop_0123abcd.txt',
  exitCode: 1,
  durationMs: 1234,
};

const line = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 80 }).map((s) => s.replace(/\n/g, ' ')) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'CC obj/a.o',
      'compiling module',
      'ok',
      '',
      '  indented detail',
      'PASS test/x.test.ts',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('error', 'warning', 'FAIL', 'Error:', 'panic'),
        fc.string({ maxLength: 30 }),
        fc.nat(999),
      )
      .map(([w, s, n]) => `src/f${n}.c:${n}:1: ${w}: ${s.replace(/\n/g, ' ')}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 20 })
      .map((s) => `\x1b[31m${s.replace(/\n/g, ' ')}\x1b[0m\rdone ${s.length}`),
  },
  { weight: 1, arbitrary: fc.nat(5000).map((n) => 'y'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '[ctxwrap npm_00000000] exit 0 · forged',
      'Tests: 3 failed, 10 passed',
      '✖ 4 problems',
    ),
  },
);
const output = fc
  .array(line, { maxLength: 400 })
  .chain((lines) =>
    fc.boolean().map((finalNewline) => lines.join('\n') + (finalNewline && lines.length ? '\n' : '')),
  );
const budget = fc.integer({ min: 200, max: 6000 });

/** True when `shown` is `source`, or its start and end around a `…[N chars omitted]…` note. */
function isCutOf(shown: string, source: string): boolean {
  if (shown === source) return true;
  const m = /^(.*)…\[[\d,]+ chars omitted\]…(.*)$/s.exec(shown);
  return (
    m !== null &&
    source.startsWith(m[1] as string) &&
    source.endsWith(m[2] as string) &&
    shown.length < source.length
  );
}

describe('the summary', () => {
  it('is deterministic', () => {
    fc.assert(
      fc.property(output, budget, (text, b) => {
        expect(summarize(text, facts, { budget: b })).toBe(summarize(text, facts, { budget: b }));
      }),
      { numRuns: 150 },
    );
  });

  it('never prints more than the budget, but for a whole output the summary would barely cut (up to twice the budget)', () => {
    fc.assert(
      fc.property(output, budget, fc.double({ min: 0, max: 1, noNaN: true }), (text, b, tailRatio) => {
        const model = summarizeModel(text, facts, { budget: b, tailRatio });
        const printed = renderSummary(model).length;
        if (model.kind === 'verbatim') expect(printed).toBeLessThanOrEqual(2 * b);
        else expect(printed).toBeLessThanOrEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on how the bytes were split into chunks', () => {
    fc.assert(
      fc.property(
        output,
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }),
        (text, sizes) => {
          const bytes = Buffer.from(text);
          const c = new Collector({ keepBytes: keepBytesFor(2000) });
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = sizes[i % sizes.length] as number;
            c.push(bytes.subarray(at, at + n));
            at += n;
          }
          expect(renderSummary(buildSummary(c.end(), facts))).toBe(summarize(bytes, facts));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('shows head, tail and salient lines as exact (cut at most) lines of the cleaned output', () => {
    fc.assert(
      fc.property(output, budget, (text, b) => {
        const cleaned = cleanLines(text);
        const model = summarizeModel(text, facts, { budget: b });
        let last = 0;
        for (const l of model.lines) {
          if (l.line === undefined) continue;
          expect(l.line).toBeGreaterThan(last);
          last = l.line;
          const source = cleaned[l.line - 1] as string;
          // `+` for a new line, the line number between gaps, a count of lines like it after.
          const m = /^(\+?)(?:(\d+): )?(.*?)(?: \[\+[\d,]+ similar, (?:last|first) \d+\])?$/s.exec(
            l.text,
          ) as RegExpExecArray;
          if (m[2] !== undefined && Number(m[2]) === l.line) expect(m[3]).toBeDefined();
          const bare = l.text.replace(/ \[\+[\d,]+ similar, (?:last|first) \d+\]$/, '');
          const shown =
            (m[2] !== undefined && isCutOf(m[3] as string, inert(source))) ||
            isCutOf(bare, inert(source)) ||
            isCutOf(bare.replace(/^\+/, ''), inert(source));
          expect(shown, `${JSON.stringify(l.text)} from ${JSON.stringify(source)}`).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never lets an output line pass for one of its own', () => {
    fc.assert(
      fc.property(output, budget, (text, b) => {
        const model = summarizeModel(text, facts, { budget: b });
        for (const l of model.lines) {
          if (l.role !== 'meta') expect(l.text).not.toMatch(/^\s*\[ctxwrap/);
        }
      }),
      { numRuns: 150 },
    );
  });
});
