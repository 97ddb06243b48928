// The run directory is not trusted, in-process: links planted inside it (output, summary,
// metadata, note, ledger, tool_results) or a run directory another user owns make show, list
// and open refuse or look past them, never read or write outside. What takes a process (FIFOs
// that could hang, read, and `ctxwrap run`) is in e2e/run-dir-safety.
import { chownSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listResults } from '../../src/commands/list.js';
import { openResult } from '../../src/commands/open.js';
import { showResult } from '../../src/commands/show.js';
import { resolveTtl } from '../../src/env.js';
import { inProcess, tempDir, writeResult } from '../support.js';

const SECRET = 'outside-the-run-dir: top secret\n';
const ID = 'sh_0000000a';

/** A run directory with one stored result (as `ctxwrap -c 'echo stored line; exit N'` leaves it), and a file outside it. */
function withResult(status = 3) {
  const runDir = join(tempDir(), 'run');
  writeResult(runDir, ID, 'stored line\n', {
    command: ['/bin/sh', '-c', `echo stored line; exit ${status}`],
    source: 'shell',
    exitCode: status,
    childExitCode: status,
    durationMs: 5,
  });
  const file = (ext: string) => join(runDir, 'tool_results', `${ID}${ext}`);
  writeFileSync(file('.summary.txt'), `stored line\n[ctxwrap ${ID}] exit ${status} · 1 line · 5ms\n`);
  const outside = join(tempDir(), 'secret.txt');
  writeFileSync(outside, SECRET);
  return { runDir, id: ID, outside, file };
}

const show = (runDir: string, id: string) => inProcess((print) => showResult({ runDir, id, print }));

describe('links planted inside the run directory are never followed', () => {
  it('show refuses an output that is a link (to /etc/passwd, or elsewhere), and never prints what it points to', async () => {
    const { runDir, id, outside, file } = withResult();
    unlinkSync(file('.summary.txt'));
    for (const target of ['/etc/passwd', outside]) {
      rmSync(file('.txt'), { force: true });
      symlinkSync(target, file('.txt'));
      expect(await show(runDir, id)).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: `ctxwrap: the output of '${id}' in ${runDir} is not a regular file (a link?); not reading it\n`,
      });
    }
  });

  it('show does not print a summary that is a link; it summarises the stored output instead', async () => {
    const { runDir, id, outside, file } = withResult();
    unlinkSync(file('.summary.txt'));
    symlinkSync(outside, file('.summary.txt'));
    const r = await show(runDir, id);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^stored line\\n\\[ctxwrap ${id}\\] exit 3 · 1 line · \\d+ms\\n$`));
  });

  it('metadata that is a link, or forged for another id, is refused', async () => {
    const { runDir, id, outside, file } = withResult();
    const real = readFileSync(file('.json'), 'utf8');
    writeFileSync(outside, real);
    unlinkSync(file('.json'));
    symlinkSync(outside, file('.json'));
    expect(await show(runDir, id)).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: the metadata of result '${id}' in ${runDir} is not a regular file (a link?); not reading it\n`,
    });
    unlinkSync(file('.json'));
    writeFileSync(file('.json'), real.replace(`"id":"${id}"`, '"id":"../../etc/passwd"'));
    expect(readFileSync(file('.json'), 'utf8')).toContain('../../etc/passwd');
    expect(await show(runDir, id)).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: the metadata of result '${id}' in ${runDir} is damaged\n`,
    });
  });

  it('list shows no note that is a link', async () => {
    const { runDir, id, outside } = withResult();
    symlinkSync(outside, join(runDir, 'tool_results', `${id}.note`));
    const listed = await inProcess((print) => listResults({ runDir, ttlMs: resolveTtl({}), print }));
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).not.toContain('top secret');
  });

  it('a tool_results that is a link is refused by show', async () => {
    const { runDir, id } = withResult();
    const moved = join(tempDir(), 'moved');
    renameSync(join(runDir, 'tool_results'), moved);
    symlinkSync(moved, join(runDir, 'tool_results'));
    expect(await show(runDir, id)).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: run directory ${join(runDir, 'tool_results')} is a symbolic link; ctxwrap does not follow links in its run directory\n`,
    });
  });

  it('open appends to no ledger that is a link', async () => {
    const { runDir, id, outside } = withResult(0);
    symlinkSync(outside, join(runDir, 'ledger.jsonl'));
    const output = new PassThrough();
    let streamed = '';
    output.on('data', (chunk: Buffer) => {
      streamed += chunk.toString();
    });
    const r = await inProcess(() => openResult({ runDir, id, isTTY: false, pager: undefined, output }));
    expect(r.exitCode).toBe(0);
    expect(streamed).toBe('stored line\n');
    expect(readFileSync(outside, 'utf8')).toBe(SECRET);
  });
});

describe('the run directory itself', () => {
  it('is refused by show when another user owns it', async () => {
    const { runDir, id } = withResult();
    chownSync(runDir, 12345, 12345);
    expect(await show(runDir, id)).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `ctxwrap: run directory ${runDir} belongs to another user (uid 12345); use --run-dir\n`,
    });
  });
});
