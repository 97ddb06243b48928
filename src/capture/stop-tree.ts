/**
 * Stops a command's process tree for capture (spawn.ts): a forwarded signal goes to the command
 * and everything it started, processes started just after it are chased for a while, and after
 * the grace period whatever is left gets SIGKILL.
 */
import { isAlive, missedSignal, type Proc, processTree, signalAll } from './process-tree.js';

/**
 * When, after a forwarded signal, the command's tree is looked at again (see chase): for new
 * processes until 300 ms, and once more at 1 s, on a loaded machine, for a missed signal only.
 */
const CHASE_MS = [20, 100, 300];
const LATE_CHASE_MS = 1000;

export class TreeStopper {
  /** The command's processes seen when ctxwrap was told to stop (the command and what it started). */
  private tree: Proc[] = [];
  private killTimer: NodeJS.Timeout | undefined;
  /** True once the grace period has passed and SIGKILL was sent. */
  killed = false;

  /**
   * `root` is the command's pid while it runs (undefined before it started and once it exited);
   * `over` is true once capture has settled (nothing more is chased then).
   */
  constructor(
    private readonly root: () => number | undefined,
    private readonly killGraceMs: number,
    private readonly over: () => boolean,
  ) {}

  /** True once told to stop (a signal, the timeout): the grace period is running. */
  get stopping(): boolean {
    return this.killTimer !== undefined;
  }

  /** Signals the tree (or, with no signal, only notes it) and starts the grace period. */
  terminate(signal: NodeJS.Signals | undefined): void {
    const now = this.look();
    this.remember(signal ? signalAll(now, signal) : now);
    // A process the command starts just after the signal (a shell forking its next command)
    // was not in the tree yet: it gets the signal too, from a few later looks.
    if (signal) {
      for (const ms of CHASE_MS) setTimeout(() => this.chase(signal, true), ms).unref();
      setTimeout(() => this.chase(signal, false), LATE_CHASE_MS).unref();
    }
    if (!this.killTimer) {
      this.killTimer = setTimeout(() => {
        this.killed = true;
        this.remember(signalAll(this.look(), 'SIGKILL'));
      }, this.killGraceMs);
      this.killTimer.unref();
    }
  }

  /** Passes SIGQUIT on to the processes of the tree there now (not to what a handler starts). */
  quit(): void {
    signalAll(this.look(), 'SIGQUIT', false);
  }

  /** True while a process of the command's tree other than `pid` (the command) is left. */
  othersAlive(pid: number | undefined): boolean {
    return this.tree.some((p) => p.pid !== pid && isAlive(p));
  }

  /** Ends the grace period's timer (capture has settled). */
  clear(): void {
    clearTimeout(this.killTimer);
  }

  /** Adds `procs` to the tree: the command's processes seen so far. */
  private remember(procs: readonly Proc[]): void {
    const known = new Map(this.tree.map((p) => [p.pid, p]));
    for (const p of procs) known.set(p.pid, p);
    this.tree = [...known.values()];
  }

  /** The command and its descendants now, and those of the processes seen before. */
  private look(): Proc[] {
    const root = this.root();
    return processTree([...(root !== undefined ? [root] : []), ...this.tree.map((p) => p.pid)]);
  }

  /**
   * Signals the command's processes that the signal reached as a shell's forked copy that has
   * since run its program (see missedSignal), and, with `andNew`, those that appeared since the
   * tree was last looked at.
   */
  private chase(signal: NodeJS.Signals, andNew: boolean): void {
    if (this.over() || this.killed) return;
    const seen = new Map(this.tree.map((p) => [p.pid, p]));
    this.remember(
      signalAll(
        this.look().filter((p) => {
          const was = seen.get(p.pid);
          return was === undefined ? andNew : missedSignal(was, p);
        }),
        signal,
      ),
    );
  }
}
