/**
 * Building many indexes at once on worker threads (a first search over a run directory full of
 * outputs), one output per task, as many threads as cores (at most 4). The workers run this
 * same module: built code only (the bundle's chunk); from TypeScript sources, callers build
 * in the main thread instead.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { buildIndex, type Coverage, type SourceStamp } from './build.js';

const ROLE = 'ctxwrap-index-builder';

interface Task {
  i: number;
  path: string;
  coverage: Coverage;
}

interface Reply {
  i: number;
  data?: ArrayBuffer;
  stamp?: SourceStamp;
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE) {
  parentPort?.on('message', (task: Task) => {
    try {
      const { data, stamp } = buildIndex(task.path, task.coverage);
      const copy = data.buffer.slice(data.byteOffset, data.byteOffset + data.length) as ArrayBuffer;
      parentPort?.postMessage({ i: task.i, data: copy, stamp } satisfies Reply, [copy]);
    } catch {
      parentPort?.postMessage({ i: task.i } satisfies Reply);
    }
  });
}

/** True when worker threads can run this module (built JavaScript, more than one core). */
export function canBuildInWorkers(): boolean {
  return import.meta.url.endsWith('.js') && availableParallelism() > 1;
}

/**
 * Builds the index of each output in `paths` on worker threads; the result for a path that
 * could not be read is undefined.
 */
export async function buildInWorkers(
  paths: string[],
  coverage: Coverage,
): Promise<({ data: Buffer; stamp: SourceStamp } | undefined)[]> {
  const results: ({ data: Buffer; stamp: SourceStamp } | undefined)[] = new Array(paths.length).fill(
    undefined,
  );
  const threads = Math.min(4, availableParallelism(), paths.length);
  let next = 0;
  const run = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url), { workerData: { role: ROLE } });
      const give = () => {
        if (next >= paths.length) {
          void worker.terminate().then(() => resolve());
          return;
        }
        const i = next++;
        worker.postMessage({ i, path: paths[i]!, coverage } satisfies Task);
      };
      worker.on('message', (reply: Reply) => {
        if (reply.data && reply.stamp)
          results[reply.i] = { data: Buffer.from(reply.data), stamp: reply.stamp };
        give();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (next < paths.length || code !== 1) reject(new Error(`index builder exited with ${code}`));
      });
      give();
    });
  await Promise.all(Array.from({ length: threads }, run));
  return results;
}
