/**
 * The first few members of a template after its exemplar: when an error template has only a
 * few lines (two `ERROR:  value too long` among thousands of rows, four failing tests), each is
 * a thing to fix, and the summary may show them all; when it has many, the exemplar and its
 * count say it, and the members are dropped at the end.
 */
import type { Candidate } from './collected.js';
import { cutLine } from './lines.js';

/** Members kept after a template's exemplar, and the most lines a template may have to keep them. */
const MEMBERS = 4;
const FEW = 8;
/** Members kept in all, and the characters of each. */
const MAX_MEMBERS = 1000;
const MEMBER_CHARS = 2048;
/** The least score of a template whose members are kept: an error or a count, not a mention. */
const MIN_SCORE = 8;

export class Members {
  private kept: Candidate[] = [];
  private readonly perTemplate = new Map<string, number>();

  /** Whether the next line of `group` (its count already raised) is kept as a member. */
  wants(group: Candidate): boolean {
    return (
      group.count <= MEMBERS + 1 &&
      group.score >= MIN_SCORE &&
      group.kind !== 'warning' &&
      this.kept.length < MAX_MEMBERS &&
      (this.perTemplate.get(group.template) ?? 0) < MEMBERS
    );
  }

  /** A member: a candidate counted in its exemplar (its own count is 0). */
  add(c: Candidate): void {
    c.text = cutLine(c.text, MEMBER_CHARS);
    c.count = 0;
    this.kept.push(c);
    this.perTemplate.set(c.template, (this.perTemplate.get(c.template) ?? 0) + 1);
  }

  /** Drops the members of templates no longer grouped (see Collector.prune). */
  prune(groups: ReadonlyMap<string, Candidate>): void {
    this.kept = this.kept.filter((m) => (groups.get(m.template)?.line ?? Number.POSITIVE_INFINITY) < m.line);
    this.perTemplate.clear();
    for (const m of this.kept) this.perTemplate.set(m.template, (this.perTemplate.get(m.template) ?? 0) + 1);
  }

  /** The members of the templates that have few lines, after their exemplar. */
  list(groups: ReadonlyMap<string, Candidate>): Candidate[] {
    return this.kept.filter((m) => {
      const g = groups.get(m.template);
      return g !== undefined && g.line < m.line && g.count <= FEW;
    });
  }
}

/** The best `max` groups, deterministically: by score (a new line's 6 more), then earliest. */
export function bestGroups(groups: Map<string, Candidate>, max: number): Map<string, Candidate> {
  const worth = (c: Candidate) => c.score + (c.isNew ? 6 : 0);
  return new Map([...groups].sort(([, a], [, b]) => worth(b) - worth(a) || a.line - b.line).slice(0, max));
}
