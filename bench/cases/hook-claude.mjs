// The Claude Code hook runs before every Bash command an agent makes, so its own time is a
// cost on every call: `ctxwrap hook claude` on a real payload, against a bare `node` that reads
// the same stdin (the floor for any Node.js hook).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, fmtMs, sideBySide, tempDir } from '../lib.mjs';

export const title = 'Claude Code hook latency';

export async function run() {
  const { dir, cleanup } = tempDir();
  try {
    const payload = join(dir, 'payload.json');
    writeFileSync(
      payload,
      JSON.stringify({
        session_id: '6f1c2a4e-8d3b-4c1e-9a7f-0b2d5e8c9a10',
        cwd: dir,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'npm test 2>&1 | tail -n 50', description: 'Run the tests' },
      }),
    );
    const env = { HOME: dir, CTXWRAP_RUN_DIR: join(dir, 'run') };
    const rows = [];
    for (const [name, subject] of [
      ['hook claude: wrap npm test', `node ${CLI} hook claude < ${payload}`],
      ['hook claude: leave alone (not Bash)', `echo '{"tool_name":"Read"}' | node ${CLI} hook claude`],
    ]) {
      const r = sideBySide(subject, `node -e 'process.stdin.resume()' < ${payload}`, {
        env,
        cwd: dir,
        runs: 9,
      });
      rows.push({
        benchmark: name,
        subject: fmtMs(r.subjectMs),
        baseline: `${fmtMs(r.baselineMs)} (bare node)`,
        ratio: r.ratio.toFixed(2),
        note: `+${fmtMs(r.subjectMs - r.baselineMs)} per Bash call`,
      });
    }
    return rows;
  } finally {
    cleanup();
  }
}
