// bin/ctxwrap.js is read by sh, then by node: sh moves NODE_EXTRA_CA_CERTS aside so that
// ctxwrap's own node does not parse a CA bundle at start (Node 20), and node puts it back before
// anything runs. Run here as a user runs it: through a symlink as npm installs bins, from a
// path with a space, by the `node` first on PATH.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ownNodeEnv } from '../../src/own-node-env.js';
import { BIN, cleanEnv, onlyId, storedOutput, tempDir } from '../support.js';

/** NUL-separated `env -0` records, sorted: the environment as a comparable list. */
const records = (out: Buffer) =>
  out
    .toString('latin1')
    .split('\0')
    .filter((r) => r !== '')
    .sort();

describe('the launcher', () => {
  const root = tempDir('ctxwrap launcher ');
  const bin = join(root, 'node bin');
  const nodeDir = join(root, 'node dir');
  mkdirSync(bin);
  mkdirSync(nodeDir);
  symlinkSync(BIN, join(bin, 'ctxwrap'));
  symlinkSync(process.execPath, join(nodeDir, 'node'));
  const runDir = join(root, 'run');
  // Only the node of the test on PATH (through a symlink), then what `env` and `sh` need.
  const PATH = [bin, nodeDir, dirname(execFileSync('sh', ['-c', 'command -v env']).toString().trim())].join(
    ':',
  );
  const env = cleanEnv(runDir, {
    PATH,
    // A bundle that cannot be read: a node that parses it says so on stderr at start.
    NODE_EXTRA_CA_CERTS: join(root, 'no such bundle.pem'),
    CTXWRAP_TEST_EMPTY: '',
    CTXWRAP_TEST_ODD: 'two\nlines, \'quotes\' "and" $dollars \\ and spaces ',
  });

  it('gives the wrapped command the environment exactly as the user had it', async () => {
    const wrapped = await execa(join(bin, 'ctxwrap'), ['--', 'env', '-0'], {
      env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(wrapped.exitCode, wrapped.stderr).toBe(0);
    const direct = execFileSync('env', ['-0'], { env });
    const got = records(storedOutput(runDir, onlyId(runDir)));
    expect(got).toEqual(records(direct));
    expect(got).toContain(`NODE_EXTRA_CA_CERTS=${env.NODE_EXTRA_CA_CERTS}`);
    expect(got.some((r) => r.startsWith('CTXWRAP_SAVED_'))).toBe(false);
  });

  it("starts ctxwrap's own node without the CA bundle (it makes no TLS connection)", async () => {
    const r = await execa(join(bin, 'ctxwrap'), ['--version'], { env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // Old launcher (`#!/usr/bin/env node`): "Warning: Ignoring extra certs from ..., load failed".
    expect(r.stderr).toBe('');
  });

  it('runs as plain JavaScript under an explicit node, with the variable left as it is', async () => {
    const r = await execa(process.execPath, [BIN, '--', 'sh', '-c', 'echo "[$NODE_EXTRA_CA_CERTS]"'], {
      env: { ...env, PATH: dirname(execFileSync('sh', ['-c', 'command -v env']).toString().trim()) },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`[${env.NODE_EXTRA_CA_CERTS}]`);
  });

  it("gives back the variable that ownNodeEnv moved aside (the MCP server's runs)", async () => {
    const moved = ownNodeEnv(env);
    expect(moved.NODE_EXTRA_CA_CERTS).toBeUndefined();
    const own = join(root, 'own run');
    const r = await execa(process.execPath, [BIN, '--run-dir', own, '--', 'env', '-0'], {
      env: moved,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(records(storedOutput(own, onlyId(own)))).toEqual(records(execFileSync('env', ['-0'], { env })));
  });
});
