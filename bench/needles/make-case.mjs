// Writes one case of the tuning corpus from a real output: `node make-case.mjs <dir>` reads
// <dir>/output.txt (and previous.txt), <dir>/spec.json {command, tool, kind, exit_code, notes,
// needles: [{text, why, query}], previous_exit_code?}, checks every needle is an exact
// single-line substring of the ANSI-stripped output, and writes <dir>/case.json in the format of
// ../shared/needles (line, position, occurrences filled in).
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const spec = JSON.parse(readFileSync(join(dir, 'spec.json'), 'utf8'));
const raw = readFileSync(join(dir, 'output.txt'));
const strip = (s) => s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/g, '');
const text = strip(raw.toString('utf8'));
const _lines = text.split('\n');
const countNl = (b) => b.reduce((n, c) => n + (c === 10 ? 1 : 0), 0);
const needles = spec.needles.map((n) => {
  const at = text.indexOf(n.text);
  if (at === -1 || n.text.includes('\n')) throw new Error(`${dir}: needle not found: ${n.text}`);
  const line = text.slice(0, at).split('\n').length;
  const occurrences = text.split(n.text).length - 1;
  return {
    ...n,
    line,
    position: Math.round((at / text.length) * 1000) / 1000,
    ...(occurrences > 1 ? { occurrences } : {}),
  };
});
const out = {
  command: spec.command,
  tool: spec.tool,
  kind: spec.kind,
  needles,
  notes: spec.notes ?? '',
  exit_code: spec.exit_code,
  bytes: raw.length,
  lines: countNl(raw),
};
const prev = join(dir, 'previous.txt');
if (existsSync(prev)) {
  const p = readFileSync(prev);
  Object.assign(out, {
    has_previous: true,
    previous_exit_code: spec.previous_exit_code ?? 0,
    previous_bytes: p.length,
    previous_lines: countNl(p),
  });
  for (const n of needles)
    if (strip(p.toString('utf8')).includes(n.text))
      throw new Error(`${dir}: needle already in previous.txt: ${n.text}`);
}
if (spec.kind === 'small') out.expect_verbatim = true;
writeFileSync(join(dir, 'case.json'), `${JSON.stringify(out, null, 2)}\n`);
unlinkSync(join(dir, 'spec.json'));
console.log(dir, raw.length, 'bytes', needles.length, 'needles');
