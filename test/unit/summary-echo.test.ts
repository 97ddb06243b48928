import { describe, expect, it } from 'vitest';
import { echoesOf } from '../../src/summary/echo.js';
import { summarize } from '../../src/summary/summarize.js';

const facts = { id: 'unit_0123abcd', path: '/runs/unit_0123abcd.txt', exitCode: 1, durationMs: 2500 };
const modules = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega'.split(' ');

/** A trace of lookups that fail harmlessly, one of which is the file the error names. */
function trace(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 300; i++) {
    const m = `${modules[i % modules.length]}${i}`;
    out.push(
      `[pid 4242] statx(AT_FDCWD, "/srv/app/node_modules/${m}/package.json", AT_STATX_SYNC_AS_STAT) = -1 ENOENT (No such file or directory)`,
    );
    if (i === 150)
      out.push(
        '[pid 4242] statx(AT_FDCWD, "/srv/app/node_modules/lib/tables/shiftjis.json", AT_STATX_SYNC_AS_STAT) = -1 ENOENT (No such file or directory)',
      );
    out.push(
      `[pid 4242] openat(AT_FDCWD, "/srv/app/node_modules/${m}/index.js", O_RDONLY|O_CLOEXEC) = ${3 + (i % 5)}`,
    );
  }
  out.push(
    "Error: Cannot find module './tables/shiftjis.json'",
    'Require stack:',
    '- /srv/app/node_modules/lib/index.js',
  );
  out.push(
    '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
    '+++ exited with 1 +++',
  );
  return out;
}

describe('echoesOf', () => {
  it("finds the few alike lines that name a rare name of the error, not the error's common words", () => {
    const lines = trace().map((text, i) => ({
      line: i + 1,
      text,
      key: text.startsWith('[pid') ? text.slice(11, 16) : `t${i}`,
      sev: text.startsWith('Error') ? 14 : 0,
      worth: 0,
    }));
    const echoes = [...echoesOf(lines)].map((n) => lines[n - 1]?.text);
    expect(echoes).toEqual([expect.stringContaining('tables/shiftjis.json')]);
  });
});

describe('summary of a trace that ends in an error', () => {
  it('shows the lookup of the file the error names among hundreds that failed harmlessly', () => {
    const out = summarize(trace().join('\n'), facts);
    expect(out).toContain('/srv/app/node_modules/lib/tables/shiftjis.json", AT_STATX');
  });
});
