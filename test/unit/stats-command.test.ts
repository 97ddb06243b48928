// `ctxwrap stats`, in-process against a temp run directory (e2e/stats: a real read counted).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { showStats } from '../../src/commands/stats.js';
import { resolveTtl } from '../../src/env.js';
import { formatBytes, formatTokens } from '../../src/format.js';
import { record } from '../../src/store/ledger.js';
import { openRunDir } from '../../src/store/run-dir.js';
import { estimateTokens } from '../../src/tokens.js';
import { ago, inProcess, tempDir, writeResult } from '../support.js';

const HOUR = 3_600_000;
/** `ctxwrap stats [--json]`, as the CLI calls it. */
const stats = (runDir: string, json = false) =>
  inProcess((print) => showStats({ runDir, json, ttlMs: resolveTtl({}), print }));

describe('ctxwrap stats', () => {
  it('says when there is nothing', async () => {
    const dir = join(tempDir(), 'run');
    expect(await stats(dir)).toEqual({
      exitCode: 0,
      stderr: '',
      stdout: `[ctxwrap: no results in ${dir}]\n`,
    });
  });

  it('counts full output against everything printed, read-backs included', async () => {
    const dir = join(tempDir(), 'run');
    const big = Array.from({ length: 20_000 }, (_, k) => `test ${k + 1} passed`).join('\n');
    writeResult(dir, 'npm_00000001', `${big}\n`, {
      startedAt: ago(2 * HOUR),
      command: ['npm', 'test'],
      summaryBytes: 1800,
    });
    writeResult(dir, 'npm_00000002', `${big}\nFAIL one\n`, {
      startedAt: ago(HOUR),
      command: ['npm', 'test'],
      summaryBytes: 1900,
    });
    writeResult(dir, 'ls_00000003', 'a\nb\n', { startedAt: ago(HOUR / 2), command: ['ls'], summaryBytes: 4 });
    // Three read-backs as `ctxwrap read` records them (e2e/stats checks that a real read does).
    const read = [120, 80, 9];
    const run = openRunDir(dir);
    record(run, { kind: 'read', id: 'npm_00000002', bytes: read[0]! });
    record(run, { kind: 'read', id: 'npm_00000002', bytes: read[1]! });
    record(run, { kind: 'read', id: 'ls_00000003', bytes: read[2]! });
    const ledger = join(dir, 'ledger.jsonl');
    const line = (v: object) => appendFileSync(ledger, `${JSON.stringify(v)}\n`);
    line({ t: Date.now(), kind: 'search', bytes: 700 }); // across results: counted
    line({ t: Date.now() - 3 * HOUR, kind: 'search', bytes: 999 }); // before every result counted: not
    line({ t: Date.now(), kind: 'read', id: 'gone_00000009', bytes: 555 }); // about a removed result: not
    appendFileSync(ledger, '{"torn\n');

    const fullBytes = 2 * (big.length + 1) + 'FAIL one\n'.length + 4;
    const summaryBytes = 1800 + 1900 + 4;
    const printedBytes = summaryBytes + read[0]! + read[1]! + read[2]! + 700;
    const json = JSON.parse((await stats(dir, true)).stdout);
    expect(json).toEqual({
      runDir: dir,
      results: 3,
      running: 0,
      incomplete: 0,
      full: { bytes: fullBytes, lines: 2 * 20_000 + 1 + 2, tokens: estimateTokens(fullBytes) },
      printed: {
        bytes: printedBytes,
        tokens: estimateTokens(printedBytes),
        summaryBytes,
        byKind: {
          read: { prints: 3, bytes: read[0]! + read[1]! + read[2]! },
          search: { prints: 1, bytes: 700 },
        },
      },
      savedTokens: estimateTokens(fullBytes) - estimateTokens(printedBytes),
      savedRatio: 1 - estimateTokens(printedBytes) / estimateTokens(fullBytes),
      topCommands: [
        { command: 'npm test', runs: 2, bytes: 2 * (big.length + 1) + 9, readBacks: 2 },
        { command: 'ls', runs: 1, bytes: 4, readBacks: 1 },
      ],
      perResult: [
        { id: 'ls_00000003', command: 'ls', bytes: 4, summaryBytes: 4, readBacks: 1, readBackBytes: read[2] },
        {
          id: 'npm_00000002',
          command: 'npm test',
          bytes: big.length + 10,
          summaryBytes: 1900,
          readBacks: 2,
          readBackBytes: read[0]! + read[1]!,
        },
        {
          id: 'npm_00000001',
          command: 'npm test',
          bytes: big.length + 1,
          summaryBytes: 1800,
          readBacks: 0,
          readBackBytes: 0,
        },
      ],
    });

    const text = await stats(dir);
    expect(text.exitCode).toBe(0);
    const b = formatBytes;
    const readBytes = read[0]! + read[1]! + read[2]!;
    const npmBytes = b(2 * (big.length + 1) + 9);
    expect(text.stdout).toBe(
      [
        `[ctxwrap stats] ${dir}`,
        'results      3',
        `full output  ${b(fullBytes)} · 40,003 lines · ~${formatTokens(estimateTokens(fullBytes))} tokens`,
        `printed      ${b(printedBytes)} · ~${formatTokens(estimateTokens(printedBytes))} tokens (summaries ${b(summaryBytes)}, read ${b(readBytes)} in 3 prints, search 700 B in 1 print)`,
        `saved        ~${formatTokens(json.savedTokens)} tokens (${(json.savedRatio * 100).toFixed(1)}% of the full output never reached the agent)`,
        'top commands by size:',
        `  ${npmBytes}  npm test (2 runs · 2 read-backs)`,
        `  ${'4 B'.padStart(npmBytes.length)}  ls (1 run · 1 read-back)`,
        '',
      ].join('\n'),
    );
  });
});
