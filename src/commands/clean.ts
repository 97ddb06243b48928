/** `ctxwrap clean`: remove results past their time to live, or all of them; never a running one. */
import { showControls } from '../controls.js';
import { formatBytes } from '../format.js';
import { commandText } from '../store/command-text.js';
import { applyClean, type CleanRequest, planClean } from '../store/prune.js';
import { openRunDir } from '../store/run-dir.js';
import { formatAge, shorten } from './describe-result.js';

export interface CleanOptions {
  runDir: string;
  /** Finished results that started longer ago than this go. */
  olderThanMs: number;
  /** How the age was given, for messages: `2h`, `7d`. */
  olderThanText: string;
  /** Remove every result that is not running, then the run directory if that empties it. */
  all?: boolean;
  /** Only list what would go, with sizes. */
  dryRun?: boolean;
  now?: number;
  print: (text: string) => void;
}

export async function cleanResults(opts: CleanOptions): Promise<number> {
  const dir = openRunDir(opts.runDir);
  const now = opts.now ?? Date.now();
  const request: CleanRequest = { olderThanMs: opts.olderThanMs, all: opts.all === true, now };
  const plan = planClean(dir, request);
  const bytes = plan.targets.reduce((n, t) => n + t.bytes, 0);
  const lines: string[] = [];
  if (opts.dryRun) {
    const width = Math.max(0, ...plan.targets.map((t) => t.id.length));
    for (const t of plan.targets) {
      const what = t.entry
        ? `${formatAge(now - t.entry.startedMs).padEnd(3)}  ${shorten(commandText(t.entry.meta), 60)}`
        : 'files of no result';
      lines.push(`${t.id.padEnd(width)}  ${formatBytes(t.bytes).padStart(7)}  ${what}`);
    }
  } else applyClean(dir, plan, request);
  const count = `${plan.targets.length} result${plan.targets.length === 1 ? '' : 's'} (${formatBytes(bytes)})`;
  const which = opts.all ? `${count}` : `${count} older than ${opts.olderThanText}`;
  const root = showControls(dir.root);
  const kept = plan.running.length ? `; kept ${plan.running.length} still running` : '';
  if (plan.targets.length === 0 && !opts.all)
    lines.push(`[ctxwrap: nothing older than ${opts.olderThanText} in ${root}${kept}]`);
  else lines.push(`[ctxwrap: ${opts.dryRun ? 'would remove' : 'removed'} ${which} from ${root}${kept}]`);
  opts.print(`${lines.join('\n')}\n`);
  return 0;
}
