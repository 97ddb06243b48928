/**
 * Where indexes live and how they are kept, under `<run_dir>/index/`: each result's index is
 * built lazily by the first search that needs it, and rebuilt when the output changed (size or
 * mtime) or the index is unusable. Indexes are kept in packs (many in one file, see pack.ts) so
 * that a search opens a few files, not one per result; a few recent ones may sit alone as
 * `<id>.idx` until there are enough to pack. Every file is written whole to a temporary name
 * and renamed, so parallel searches and crashes leave either no file or a whole one; a search
 * that meets a broken file ignores it and rebuilds what it needs. A running result's index is
 * kept in memory only.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ID_PATTERN, validateId } from '../store/ids.js';
import type { Entry } from '../store/registry.js';
import { resultPaths } from '../store/results.js';
import type { RunDir } from '../store/run-dir.js';
import { readBytesNoFollow } from '../store/safe-open.js';
import { buildIndex, type Coverage } from './build.js';
import { buildInWorkers, canBuildInWorkers } from './build-workers.js';
import { IndexReader, type Stamp, UnusableIndex } from './index-file.js';
import { itemOf, PACK_NAME, Pack, type PackItem, removePack, writePack } from './pack.js';

/** Indexes built by one search are packed together when there are at least this many. */
const PACK_MIN = 8;
/** ... and a pack is written as soon as they hold this many bytes (memory stays bounded). */
const FLUSH_BYTES = 32 << 20;
/** Lone index files are packed once there are this many. */
const LOOSE_MAX = 32;
/** Packs are merged into one once there are more than this many. */
const PACKS_MAX = 8;
/** Worker threads build indexes when at least this many bytes of output lack one... */
const PARALLEL_MIN_BYTES = 8 << 20;
/** ... in waves of at most this many bytes of output (memory stays bounded). */
const WAVE_BYTES = 128 << 20;
/** Temporary files older than this are leftovers of a crash. */
const STALE_TMP_MS = 10 * 60_000;

export function indexDir(dir: RunDir): string {
  return join(dir.root, 'index');
}

export function indexPath(dir: RunDir, id: string): string {
  return join(indexDir(dir), `${validateId(id)}.idx`);
}

/** An index opened for a search, and how it was had. */
export interface Opened {
  reader: IndexReader;
  /** True when it had to be built (missing, stale or unusable). */
  built: boolean;
}

function stampOf(path: string): Stamp | undefined {
  try {
    const st = statSync(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

/** The indexes of one run directory, for the length of one search. */
export class IndexStore {
  private packs: Pack[] = [];
  private loose = new Set<string>();
  private pending: { id: string; data: Buffer }[] = [];
  private pendingBytes = 0;
  /** Pack members found stale or unusable (left out when packs are merged). */
  private dead = new Set<string>();
  /** Readers replaced because their index moved into a pack (to release its memory). */
  private swapped = new Map<string, IndexReader>();
  /** Readers opened or built ahead by prebuild(), handed out by open(). */
  private ready = new Map<string, IndexReader>();
  /** Results whose index this search built. */
  private builtIds = new Set<string>();

  constructor(
    private readonly dir: RunDir,
    private readonly coverage: Coverage,
  ) {
    let names: string[] = [];
    try {
      names = readdirSync(indexDir(dir));
    } catch {
      return;
    }
    const packs: { pack: Pack; mtimeMs: number }[] = [];
    for (const name of names) {
      if (PACK_NAME.test(name)) {
        const path = join(indexDir(dir), name);
        try {
          const mtimeMs = statSync(path).mtimeMs;
          packs.push({ pack: Pack.open(path), mtimeMs });
        } catch (error) {
          if (error instanceof UnusableIndex) removePack(path);
        }
      } else if (name.endsWith('.idx') && ID_PATTERN.test(name.slice(0, -4))) {
        this.loose.add(name.slice(0, -4));
      }
    }
    // Newest first: a result packed twice (rebuilt after its output changed) is read from the newer.
    this.packs = packs.sort((a, b) => b.mtimeMs - a.mtimeMs).map((p) => p.pack);
  }

  /** The index of a result kept on disk, if one is usable for the output as it is now. */
  private existing(id: string, stamp: Stamp): IndexReader | undefined {
    for (const pack of this.packs) {
      if (!pack.members.has(id)) continue;
      try {
        return pack.reader(id, stamp);
      } catch (error) {
        if (!(error instanceof UnusableIndex)) throw error;
        this.dead.add(`${pack.path}\0${id}`);
      }
    }
    if (this.loose.has(id)) {
      try {
        return IndexReader.open(indexPath(this.dir, id), stamp);
      } catch (error) {
        if (!(error instanceof UnusableIndex) && (error as NodeJS.ErrnoException).code !== 'ENOENT')
          throw error;
      }
    }
    return undefined;
  }

  /**
   * Builds ahead, on worker threads, the indexes that `entries` lack, when there is enough to
   * build (a first search over many outputs); in waves, so that memory stays bounded. Whatever
   * this does not build, open() builds in the main thread.
   */
  async prebuild(entries: Entry[]): Promise<void> {
    if (!canBuildInWorkers()) return;
    const cap = this.coverage.headBytes + this.coverage.tailBytes;
    const todo: { entry: Entry; path: string; bytes: number }[] = [];
    for (const entry of entries) {
      if (entry.meta.binary) continue;
      const path = resultPaths(this.dir, entry.meta.id).output;
      const stamp = stampOf(path);
      if (!stamp) continue;
      const reader = this.existing(entry.meta.id, stamp);
      if (reader) this.ready.set(entry.meta.id, reader);
      else todo.push({ entry, path, bytes: Math.min(stamp.size, cap) });
    }
    if (todo.length < 2 || todo.reduce((n, t) => n + t.bytes, 0) < PARALLEL_MIN_BYTES) return;
    for (let from = 0; from < todo.length; ) {
      let to = from;
      for (let bytes = 0; to < todo.length && (to === from || bytes + todo[to]!.bytes <= WAVE_BYTES); to++)
        bytes += todo[to]!.bytes;
      const wave = todo.slice(from, to);
      let built: Awaited<ReturnType<typeof buildInWorkers>>;
      try {
        built = await buildInWorkers(
          wave.map((t) => t.path),
          this.coverage,
        );
      } catch {
        return;
      }
      wave.forEach((t, i) => {
        const b = built[i];
        if (b) this.ready.set(t.entry.meta.id, this.adopt(t.entry, b.data, b.stamp));
      });
      from = to;
    }
  }

  /** Takes a freshly built index: kept for writing (unless the result is running), and opened. */
  private adopt(entry: Entry, data: Buffer, stamp: Stamp): IndexReader {
    const reader = IndexReader.fromBuffer(data, stamp);
    this.builtIds.add(entry.meta.id);
    if (entry.state !== 'running') {
      this.pending.push({ id: entry.meta.id, data });
      this.pendingBytes += data.length;
      if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    }
    return this.swapped.get(entry.meta.id) ?? reader;
  }

  /**
   * Opens the index of a result, building it when it is missing, stale or unusable (or when
   * `rebuild` is set). Returns undefined when the output itself cannot be read.
   */
  open(entry: Entry, rebuild = false): Opened | undefined {
    const id = entry.meta.id;
    if (!rebuild) {
      const ready = this.ready.get(id);
      if (ready) {
        this.ready.delete(id);
        return { reader: this.swapped.get(id) ?? ready, built: this.builtIds.has(id) };
      }
    }
    const output = resultPaths(this.dir, id).output;
    const stamp = stampOf(output);
    if (!stamp) return undefined;
    if (!rebuild) {
      const reader = this.existing(id, stamp);
      if (reader) return { reader, built: false };
    }
    let built: ReturnType<typeof buildIndex>;
    try {
      built = buildIndex(output, this.coverage);
    } catch {
      return undefined;
    }
    return { reader: this.adopt(entry, built.data, built.stamp), built: true };
  }

  /** Readers to use instead of the ones handed out, for indexes that moved into a pack. */
  takeSwaps(): Map<string, IndexReader> {
    const s = this.swapped;
    this.swapped = new Map();
    return s;
  }

  private ensureDir(): boolean {
    try {
      mkdirSync(indexDir(this.dir), { recursive: true, mode: 0o700 });
      // A link planted in its place is not written through: no index is kept then.
      return lstatSync(indexDir(this.dir)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Writes the indexes built so far as one pack, and reopens them from it. */
  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length === 0 || !this.ensureDir()) return;
    try {
      const pack = Pack.open(
        writePack(
          indexDir(this.dir),
          batch.map((x) => itemOf(x.id, x.data)),
        ),
      );
      this.packs.unshift(pack);
      for (const x of batch) {
        const stamp = stampOf(resultPaths(this.dir, x.id).output);
        if (!stamp) continue;
        try {
          const reader = pack.reader(x.id, stamp);
          // A reader built ahead and not yet handed out is replaced here; one handed out is
          // replaced by the caller (takeSwaps).
          if (this.ready.has(x.id)) this.ready.set(x.id, reader);
          else this.swapped.set(x.id, reader);
        } catch {
          /* keep the reader in memory */
        }
      }
    } catch {
      /* a read-only or full run directory only costs speed */
    }
  }

  /**
   * Keeps the store tidy once a search has its answer: saves what this search built (as a pack,
   * or alone when few), packs lone indexes when there are many, merges packs when there are
   * many, and drops what belongs to results that are gone (`known` holds every result id).
   */
  finish(known: ReadonlySet<string>): void {
    if (this.pending.length >= PACK_MIN) this.flush();
    for (const x of this.pending) {
      if (!this.ensureDir()) break;
      const path = indexPath(this.dir, x.id);
      const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;
      try {
        writeFileSync(tmp, x.data, { mode: 0o600, flag: 'wx' });
        renameSync(tmp, path);
        this.loose.add(x.id);
      } catch {
        rmSync(tmp, { force: true });
      }
    }
    this.pending = [];
    const loose = [...this.loose].filter((id) => known.has(id));
    try {
      if (loose.length >= LOOSE_MAX) this.packLoose(loose);
      if (this.packs.length > PACKS_MAX) this.mergePacks(known);
    } catch {
      /* tidying is an optimisation; a failure leaves the files as they were */
    }
    sweep(this.dir, known);
  }

  private packLoose(ids: string[]): void {
    const items: PackItem[] = [];
    for (const id of ids) {
      const stamp = stampOf(resultPaths(this.dir, id).output);
      if (!stamp) continue;
      try {
        const data = readBytesNoFollow(indexPath(this.dir, id));
        IndexReader.fromBuffer(data, stamp);
        items.push(itemOf(id, data));
      } catch {
        /* unusable or gone: the next search that needs it rebuilds it */
      }
    }
    if (items.length === 0) return;
    this.packs.unshift(Pack.open(writePack(indexDir(this.dir), items)));
    for (const x of items) rmSync(indexPath(this.dir, x.id), { force: true });
  }

  private mergePacks(known: ReadonlySet<string>): void {
    const items: PackItem[] = [];
    const seen = new Set<string>();
    for (const pack of this.packs) {
      for (const id of pack.members.keys()) {
        if (seen.has(id) || !known.has(id) || this.dead.has(`${pack.path}\0${id}`)) continue;
        seen.add(id);
        items.push(pack.item(id)!);
      }
    }
    const old = this.packs;
    const merged = Pack.open(writePack(indexDir(this.dir), items));
    this.packs = [merged];
    for (const p of old) {
      p.close();
      removePack(p.path);
    }
  }

  close(): void {
    for (const p of this.packs) p.close();
    this.packs = [];
  }
}

/**
 * Removes what crashes and deleted results leave behind: temporary files of interrupted
 * writes, and lone indexes of results whose metadata is gone.
 */
function sweep(dir: RunDir, known: ReadonlySet<string>, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(indexDir(dir));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(indexDir(dir), name);
    try {
      if (name.includes('.tmp-')) {
        if (now - statSync(path).mtimeMs > STALE_TMP_MS) unlinkSync(path);
      } else if (name.endsWith('.idx')) {
        const id = name.slice(0, -'.idx'.length);
        if (ID_PATTERN.test(id) && !known.has(id)) unlinkSync(path);
      }
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}
