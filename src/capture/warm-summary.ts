/**
 * The summary is built after the command exits, and that wait is what the user feels (issue 23):
 * built cold, most of it is V8 interpreting code and compiling regular expressions for the first
 * time. While a long output streams and the reader is idle, the summary of its first bytes is
 * built, rendered and thrown away (with the fingerprint the result stores), so that the real
 * one runs compiled code. A short output, or one that arrives faster than it is read (no idle
 * time to use), never pays for it.
 */
import { Collector, type CollectorOptions } from '../summary/collector.js';
import { serializeFingerprint } from '../summary/fingerprint.js';
import { buildSummary, renderSummary } from '../summary/render.js';

/** Warm only outputs at least this long: a shorter one's summary is cheap. */
const WARM_AFTER_BYTES = 1 << 20;
/** A read shorter than this found the pipe not full: the reader has caught up with the command. */
const IDLE_READ_BYTES = 32 << 10;
/** How much of the output's start the throwaway summary is built from. */
const SAMPLE_BYTES = 128 << 10;
/** How many times: V8 optimises a function only after it has run a while. */
const WARM_ROUNDS = 3;

const FACTS = { id: 'warm', path: '(warm)', exitCode: 1, durationMs: 0 };

export class SummaryWarmer {
  private sample: Buffer[] = [];
  private sampled = 0;
  private seen = 0;
  /** Whether the throwaway summary was built (or given up on). */
  warmed = false;

  constructor(private readonly options: CollectorOptions) {}

  /** The next chunk of the output, as read (copied where kept: the reader reuses its buffer). */
  push(chunk: Buffer): void {
    if (this.warmed) return;
    if (this.sampled < SAMPLE_BYTES) {
      const part = Buffer.from(chunk.subarray(0, SAMPLE_BYTES - this.sampled));
      this.sample.push(part);
      this.sampled += part.length;
    }
    this.seen += chunk.length;
    if (this.seen >= WARM_AFTER_BYTES && chunk.length < IDLE_READ_BYTES) this.warm();
  }

  private warm(): void {
    this.warmed = true;
    const sample = Buffer.concat(this.sample);
    this.sample = [];
    try {
      const { previous: _, ...options } = this.options;
      for (let i = 0; i < WARM_ROUNDS; i++) {
        const collector = new Collector(options);
        collector.push(sample);
        const collected = collector.end();
        // What the result's end does after the summary: render it, store the fingerprint.
        renderSummary(buildSummary(collected, FACTS, {}));
        serializeFingerprint(collected.fingerprint);
      }
    } catch {
      // Only a warm-up: the real summary reports its own failure.
    }
  }
}
