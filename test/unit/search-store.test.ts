import { mkdtempSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../src/search/build.js';
import { itemOf, Pack, writePack } from '../../src/search/pack.js';
import { IndexStore, indexDir } from '../../src/search/store.js';
import { type Entry, listEntries } from '../../src/store/registry.js';
import { ensureRunDir, type RunDir } from '../../src/store/run-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function runDir(): RunDir {
  const root = mkdtempSync(join(tmpdir(), 'ctxwrap-store-'));
  dirs.push(root);
  return ensureRunDir(root);
}

let serial = 0;
/** Writes `n` complete results straight into the run directory; returns their entries. */
function addResults(dir: RunDir, n: number): Entry[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `r_${(serial++).toString(16).padStart(8, '0')}`;
    writeFileSync(join(dir.results, `${id}.txt`), `line one of ${id}\nshared words here\n`);
    const meta = {
      version: 1,
      id,
      command: ['x'],
      source: 'command',
      cwd: '/',
      startedAt: new Date().toISOString(),
      state: 'complete',
      pid: 1,
    };
    writeFileSync(join(dir.results, `${id}.json`), JSON.stringify(meta));
    ids.push(id);
  }
  return listEntries(dir).filter((e) => ids.includes(e.meta.id));
}

/** One search's worth of store use: open every index, then tidy. Returns how many were built. */
function searchOnce(dir: RunDir): number {
  const all = listEntries(dir);
  const store = new IndexStore(dir, { headBytes: 1 << 20, tailBytes: 1 << 20 });
  let built = 0;
  for (const e of all) {
    const o = store.open(e);
    expect(o, e.meta.id).toBeDefined();
    expect(o!.reader.find(e.meta.id, 'exact')).toHaveLength(1);
    if (o!.built) built++;
    o!.reader.close();
  }
  store.finish(new Set(all.map((e) => e.meta.id)));
  store.close();
  return built;
}

const files = (dir: RunDir) => readdirSync(indexDir(dir)).sort();

describe('IndexStore', () => {
  it('keeps a few new indexes alone, packs many built at once, and packs lone ones when they pile up', () => {
    const dir = runDir();
    const loose = () => files(dir).filter((f) => f.endsWith('.idx')).length;
    const packs = () => files(dir).filter((f) => f.endsWith('.pack')).length;
    addResults(dir, 3);
    expect(searchOnce(dir)).toBe(3);
    expect([loose(), packs()]).toEqual([3, 0]);
    expect(searchOnce(dir)).toBe(0);
    addResults(dir, 30);
    expect(searchOnce(dir)).toBe(30);
    expect([loose(), packs()]).toEqual([3, 1]);
    for (let i = 0; i < 4; i++) {
      addResults(dir, 7);
      searchOnce(dir);
    }
    expect([loose(), packs()]).toEqual([31, 1]);
    addResults(dir, 7);
    searchOnce(dir);
    expect([loose(), packs()]).toEqual([0, 2]);
    expect(searchOnce(dir)).toBe(0);
  });

  it('merges packs when there are many, and drops results that are gone', () => {
    const dir = runDir();
    let first: Entry[] = [];
    for (let round = 0; round < 8; round++) {
      const made = addResults(dir, 8);
      if (round === 0) first = made;
      searchOnce(dir);
    }
    expect(files(dir).filter((f) => f.endsWith('.pack'))).toHaveLength(8);
    rmSync(join(dir.results, `${first[0]!.meta.id}.json`));
    addResults(dir, 8);
    searchOnce(dir);
    expect(files(dir).filter((f) => f.endsWith('.pack'))).toHaveLength(1);
    const pack = Pack.open(join(indexDir(dir), files(dir)[0]!));
    expect(pack.members.size).toBe(71);
    expect(pack.members.has(first[0]!.meta.id)).toBe(false);
    pack.close();
    expect(searchOnce(dir)).toBe(0);
  });

  it.each([
    ['truncated', (p: string) => truncateSync(p, 100)],
    ['garbage', (p: string) => writeFileSync(p, Buffer.alloc(5000, 9))],
  ])('removes a %s pack and rebuilds what it held', (_, damage) => {
    const dir = runDir();
    addResults(dir, 10);
    searchOnce(dir);
    const pack = files(dir).find((f) => f.endsWith('.pack'))!;
    damage(join(indexDir(dir), pack));
    expect(searchOnce(dir)).toBe(10);
    expect(files(dir)).not.toContain(pack);
  });

  it('rebuilds a packed index whose output changed, and reads the new one', () => {
    const dir = runDir();
    const [e] = addResults(dir, 10);
    searchOnce(dir);
    const out = join(dir.results, `${e!.meta.id}.txt`);
    writeFileSync(out, `line one of ${e!.meta.id}\nchanged\n`);
    utimesSync(out, new Date(), new Date(Date.now() + 1000));
    expect(searchOnce(dir)).toBe(1);
    expect(searchOnce(dir)).toBe(0);
  });
});

describe('packs', () => {
  it('hold indexes byte for byte and read them back', () => {
    const dir = runDir();
    const out = join(dir.results, 'a.txt');
    writeFileSync(out, 'alpha beta\ngamma\n');
    const { data, stamp } = buildIndex(out);
    const path = writePack(dir.root, [itemOf('ab_00000001', data)]);
    const pack = Pack.open(path);
    expect(pack.reader('ab_00000001', stamp).find('gamma', 'exact')).toHaveLength(1);
    expect(() => pack.reader('ab_00000002', stamp)).toThrow();
    pack.close();
  });
});
