/**
 * Packs: many indexes in one file, `<run_dir>/index/pack-<hex>.pack`, so that a search opens one
 * file instead of one per result. A pack is the indexes copied byte for byte, with a directory
 * and a copy of each one's header and skip list up front (read in one go):
 *
 *   "ctxwrap-pack 1\n" u32 directory length, directory JSON, heads, indexes, "ctxwrap-pack-end 1\n"
 *
 * Packs are written whole to a temporary file and renamed, never changed; merging writes a new
 * one and removes the old ones (a search that has one open keeps reading it). Nothing in a pack
 * is trusted: a pack that fails its checks is removed, and each index in it is checked as if it
 * were on its own.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ID_PATTERN } from '../store/ids.js';
import { headOf, IndexReader, openIndexFile, readAt, type Stamp, UnusableIndex } from './index-file.js';

const MAGIC = Buffer.from('ctxwrap-pack 1\n');
const TRAILER = Buffer.from('ctxwrap-pack-end 1\n');
export const PACK_NAME = /^pack-[0-9a-f]{8}\.pack$/;

interface Member {
  id: string;
  /** Offset and length of the index in the pack. */
  at: number;
  length: number;
  /** Offset and length of its head (header and skip list) in the pack. */
  headAt: number;
  headLength: number;
}

/** One index to put in a pack: its head, its length, and how to copy its bytes. */
export interface PackItem {
  id: string;
  head: Buffer;
  length: number;
  /** Writes the whole index (`length` bytes) to `fd` at its current position. */
  write(fd: number): void;
}

/** An index held in memory, as a pack item. */
export function itemOf(id: string, data: Buffer): PackItem {
  return { id, head: headOf(data), length: data.length, write: (fd) => writeAll(fd, data) };
}

function writeAll(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length; ) done += writeSync(fd, data, done);
}

/** Writes `items` as one pack in `dir` (atomically, copying one index at a time); returns its path. */
export function writePack(dir: string, items: PackItem[]): string {
  const probe = JSON.stringify({
    v: 1,
    members: items.map((x) => ({ id: x.id, at: 1e15, length: 1e15, headAt: 1e15, headLength: 1e15 })),
  });
  const dirLen = Buffer.byteLength(probe);
  let pos = MAGIC.length + 4 + dirLen;
  const headAt: number[] = [];
  for (const x of items) {
    headAt.push(pos);
    pos += x.head.length;
  }
  const members: Member[] = items.map((x, i) => {
    const m = { id: x.id, at: pos, length: x.length, headAt: headAt[i]!, headLength: x.head.length };
    pos += x.length;
    return m;
  });
  const directory = Buffer.alloc(dirLen, 0x20);
  directory.write(JSON.stringify({ v: 1, members }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(dirLen);
  const path = join(dir, `pack-${randomBytes(4).toString('hex')}.pack`);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    for (const part of [MAGIC, len, directory, ...items.map((x) => x.head)]) writeAll(fd, part);
    for (const x of items) x.write(fd);
    writeAll(fd, TRAILER);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, path);
  return path;
}

/** An open pack: which results it holds, and readers for them. */
export class Pack {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    readonly members: Map<string, Member>,
    private readonly heads: Buffer,
    private readonly headsAt: number,
  ) {}

  /** Opens a pack and checks its frame; throws UnusableIndex when it cannot be used. */
  static open(path: string): Pack {
    const fd = openIndexFile(path);
    try {
      const size = fstatSync(fd).size;
      if (size < MAGIC.length + 4 + TRAILER.length) throw new UnusableIndex('short pack');
      const start = readAt(fd, 0, MAGIC.length + 4);
      if (!start.subarray(0, MAGIC.length).equals(MAGIC)) throw new UnusableIndex('bad pack magic');
      const dirLen = start.readUInt32LE(MAGIC.length);
      if (MAGIC.length + 4 + dirLen + TRAILER.length > size) throw new UnusableIndex('bad pack directory');
      if (!readAt(fd, size - TRAILER.length, TRAILER.length).equals(TRAILER))
        throw new UnusableIndex('bad pack trailer');
      const dirAt = MAGIC.length + 4;
      const parsed = JSON.parse(readAt(fd, dirAt, dirLen).toString('utf8')) as {
        v: number;
        members: Member[];
      };
      if (parsed?.v !== 1 || !Array.isArray(parsed.members)) throw new UnusableIndex('bad pack directory');
      const headsAt = dirAt + dirLen;
      let headsEnd = headsAt;
      const members = new Map<string, Member>();
      for (const m of parsed.members) {
        const ok =
          typeof m?.id === 'string' &&
          ID_PATTERN.test(m.id) &&
          [m.at, m.length, m.headAt, m.headLength].every((x) => Number.isSafeInteger(x) && x >= 0) &&
          m.headAt >= headsAt &&
          m.headLength <= m.length &&
          m.at + m.length <= size - TRAILER.length;
        if (!ok) throw new UnusableIndex('bad pack member');
        headsEnd = Math.max(headsEnd, m.headAt + m.headLength);
        if (!members.has(m.id)) members.set(m.id, m);
      }
      const heads = readAt(fd, headsAt, headsEnd - headsAt);
      return new Pack(path, fd, members, heads, headsAt);
    } catch (error) {
      closeSync(fd);
      if (error instanceof UnusableIndex) throw error;
      throw new UnusableIndex((error as Error).message);
    }
  }

  /** A reader for the index of `id` in this pack; throws UnusableIndex if it cannot be used. */
  reader(id: string, stamp: Stamp): IndexReader {
    const m = this.members.get(id);
    if (!m) throw new UnusableIndex('not in pack');
    const head = this.heads.subarray(m.headAt - this.headsAt, m.headAt - this.headsAt + m.headLength);
    return IndexReader.inPack(this.fd, m.at, m.length, head, stamp);
  }

  /** One member as a pack item (to copy it into a new pack, 1 MiB at a time). */
  item(id: string): PackItem | undefined {
    const m = this.members.get(id);
    if (!m) return undefined;
    const head = this.heads.subarray(m.headAt - this.headsAt, m.headAt - this.headsAt + m.headLength);
    return {
      id,
      head,
      length: m.length,
      write: (out) => {
        for (let done = 0; done < m.length; ) {
          const chunk = readAt(this.fd, m.at + done, Math.min(1 << 20, m.length - done));
          writeAll(out, chunk);
          done += chunk.length;
        }
      },
    };
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Removes a pack file (a broken one, or one merged into another); never fails. */
export function removePack(path: string): void {
  rmSync(path, { force: true });
}
