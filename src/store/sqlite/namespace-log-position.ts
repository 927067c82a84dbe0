import type Database from "better-sqlite3";

/**
 * Where a namespace stands in `vec_log` (its latest seq) and how many units
 * it holds then. Shared by the in-memory indexes beside the file (dense and
 * lexical): each decides from these two whether the namespace is large
 * enough to be indexed and whether its index is current. The unit count
 * changes only with a log row, so it is counted once per seq.
 */
export class NamespaceLogPosition {
  private readonly counts = new Map<string, { seq: number; count: number }>();

  constructor(private readonly db: Database.Database) {}

  latestSeq(namespace: string): number {
    return Number(this.db.prepare("SELECT coalesce(max(seq), 0) FROM vec_log WHERE namespace = ?").pluck().get(namespace));
  }

  unitCount(namespace: string, seq: number): number {
    const hit = this.counts.get(namespace);
    if (hit && hit.seq === seq) return hit.count;
    const count = Number(this.db.prepare("SELECT count(*) FROM units WHERE namespace = ?").pluck().get(namespace));
    this.counts.set(namespace, { seq, count });
    return count;
  }

  /** Forgets the counts of the namespace (of all without one): for deletes that take rows out of the log. */
  forget(namespace?: string): void {
    if (namespace === undefined) this.counts.clear();
    else this.counts.delete(namespace);
  }
}
