// Writes manifest.json from every cases/<name>/case.json (run it after adding or changing a case;
// `node score.mjs --verify` then checks the two agree with the files).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const casesDir = join(here, 'cases');
const cases = readdirSync(casesDir)
  .sort()
  .map((name) => {
    const c = JSON.parse(readFileSync(join(casesDir, name, 'case.json'), 'utf8'));
    return {
      name,
      kind: c.kind,
      bytes: c.bytes,
      lines: c.lines,
      needles: c.needles.length,
      exit_code: c.exit_code,
      tool: c.tool,
      ...(c.has_previous ? { previous_bytes: c.previous_bytes, previous_lines: c.previous_lines } : {}),
    };
  });
writeFileSync(join(here, 'manifest.json'), `${JSON.stringify({ cases }, null, 2)}\n`);
console.log(`${cases.length} cases`);
