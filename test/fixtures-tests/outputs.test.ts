import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/summary/summarize.js';
import { DEFAULT_BUDGET } from '../../src/summary-budget.js';
import { ROOT } from '../support.js';

const DIR = join(ROOT, 'fixtures', 'outputs');
const cases = readdirSync(DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface Case {
  command: string;
  exit_code: number;
  needles: string[];
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

describe.each(cases)('%s', (name) => {
  const meta = JSON.parse(readFileSync(join(DIR, name, 'case.json'), 'utf8')) as Case;
  const output = readFileSync(join(DIR, name, 'output.txt'));
  const facts = {
    id: 'fixture_00000000',
    path: `/run/tool_results/${name}.txt`,
    exitCode: meta.exit_code,
    durationMs: 1000,
  };
  const text = summarize(output, facts);

  it('stays within the default budget', () => {
    expect(text.length).toBeLessThanOrEqual(DEFAULT_BUDGET);
  });

  it('keeps the lines an agent needs', () => {
    const missing = meta.needles.filter((n) => !norm(text).includes(norm(n)));
    // tsc's one injected error sits among 193 others of the same kind: search finds it, not the summary.
    const allowed = name === 'tsc-noemit-hono' ? 1 : 0;
    expect(missing.length, `missing: ${missing.join(' | ')}`).toBeLessThanOrEqual(allowed);
  });

  it('renders as recorded', () => {
    expect(text).toMatchSnapshot();
  });
});
