/**
 * `ctxwrap -`: reads ctxwrap's own stdin until it ends, a signal comes, or the timeout. Each
 * chunk goes to `onChunk` as it arrives and is then let go: memory stays flat however long the
 * input (a loop that raced every read against a promise of the stop kept every chunk alive).
 */
import type { CaptureResult } from './spawn.js';

/** The signals that reached ctxwrap (see latchSignals in commands/run.ts). */
export interface SignalSource {
  readonly first: NodeJS.Signals | undefined;
  listen(fn: (signal: NodeJS.Signals) => void): () => void;
}

export function readStdin(
  opts: { stdin?: NodeJS.ReadableStream; timeoutMs?: number },
  onChunk: (chunk: Buffer) => void,
  signals: SignalSource,
): Promise<CaptureResult> {
  const started = process.hrtime.bigint();
  const source = opts.stdin;
  return new Promise((resolve) => {
    let done = false;
    const finish = (why?: 'signal' | 'timeout') => {
      if (done) return;
      done = true;
      unlisten();
      clearTimeout(timer);
      if (source) {
        source.off('data', onData);
        source.off('end', onEnd);
        source.off('error', onEnd);
        source.pause();
      }
      const result: CaptureResult = {
        code: 0,
        signal: null,
        timedOut: why === 'timeout',
        pipesLeftOpen: false,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (why === 'signal' && signals.first) result.interrupted = signals.first;
      resolve(result);
    };
    const onData = (chunk: Buffer | string) =>
      onChunk(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = () => finish();
    const unlisten = signals.listen(() => finish('signal'));
    const timer =
      opts.timeoutMs === undefined ? undefined : setTimeout(() => finish('timeout'), opts.timeoutMs);
    if (signals.first) return finish('signal');
    if (!source) return finish();
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onEnd);
    source.resume();
  });
}
