// A result the hook plans for a command the agent then declines (a permission prompt answered
// no, a deny rule the hook could not see) never starts: it must not stay `running` (nor turn
// `incomplete`) in list, and clean sweeps its record (issue 20 low, issue 22 #9). The wrapped
// command creates its output file when it starts: that is what makes a result exist.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listResults } from '../../src/commands/list.js';
import { allocateResult, planResult } from '../../src/store/allocate-result.js';
import { planClean } from '../../src/store/prune.js';
import { openRunDir } from '../../src/store/run-dir.js';
import { inProcess, tempDir } from '../support.js';

const list = (runDir: string) =>
  inProcess((print) => listResults({ runDir, json: true, ttlMs: 7 * 86_400_000, print }));

describe('a result planned by the hook for a command that never ran', () => {
  it.each([
    ['the agent still running', process.pid],
    ['the agent gone', spawnSync('true').pid as number],
  ])('is not listed (%s); once the command starts it is', async (_name, pid) => {
    const runDir = tempDir();
    const planned = planResult(runDir, 'rm');
    allocateResult({ runDir, id: planned.id, command: ['bash', '-c', 'rm -rf build'], cwd: runDir, pid });
    expect(JSON.parse((await list(runDir)).stdout)).toEqual([]);
    // Past the time to live, clean takes its record away as files of no result.
    const later = planClean(openRunDir(runDir), {
      olderThanMs: 7 * 86_400_000,
      all: false,
      now: Date.now() + 8 * 86_400_000,
    });
    expect(later.targets.map((t) => t.id)).toEqual([planned.id]);

    // The wrapper's first step: the output file.
    writeFileSync(planned.output, '');
    const listed = JSON.parse((await list(runDir)).stdout);
    expect(listed.map((r: { id: string; state: string }) => [r.id, r.state])).toEqual([
      [planned.id, pid === process.pid ? 'running' : 'incomplete'],
    ]);
  });
});
