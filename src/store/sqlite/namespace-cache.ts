/**
 * What a SQLite store handle keeps per namespace between writes — the session
 * list, the history range, the unit count — and the file's term statistics
 * (for lexical pruning), all dropped by this handle's writes (`forget()`) and
 * by another connection's commit (`PRAGMA data_version`). Each entry's
 * generation is the namespace's `namespaceVersion`.
 */
import type Database from "better-sqlite3";
import type { StoredSession } from "../contract.js";

/** What listSessions and historyRange read, kept per namespace until a write. */
export interface NamespaceCache {
  /** Which entry this is, never reused by the handle: the namespace's version (namespaceVersion). */
  generation: number;
  sessions?: StoredSession[];
  range?: { start: string; end: string } | null;
  units?: number;
}

/** The file's unit count and terms' document counts (FTS5's own statistics, for bm25's idf). */
export interface TermStats {
  rows?: number;
  docs: Map<string, number>;
}

export class NamespaceCaches {
  private readonly cached = new Map<string, NamespaceCache>();
  /** PRAGMA data_version when `cached` was last known valid: it changes when another connection commits. */
  private cachedAt = -1;
  /** The file's unit count and terms' document counts (FTS5's own statistics, for bm25's idf), cleared with `cached`. */
  private stats: TermStats = { docs: new Map() };
  /** The last NamespaceCache generation handed out. */
  private generations = 0;

  constructor(private readonly db: Database.Database) {}

  /** The current term statistics: read after entryOf(), which may have replaced them. */
  get termStats(): TermStats {
    return this.stats;
  }

  /**
   * The namespace's cache entry, emptied when anything committed since it
   * was filled: this handle's writes clear it themselves (forget()), another
   * process's show in data_version.
   */
  entryOf(namespace: string): NamespaceCache {
    const version = Number(this.db.pragma("data_version", { simple: true }));
    if (version !== this.cachedAt) {
      this.cached.clear();
      this.stats = { docs: new Map() };
      this.cachedAt = version;
    }
    let entry = this.cached.get(namespace);
    if (!entry) this.cached.set(namespace, (entry = { generation: ++this.generations }));
    return entry;
  }

  /** Called inside every write: the caches of the namespace (all of them when it is not known) are dropped. */
  forget(namespace?: string): void {
    if (namespace === undefined) this.cached.clear();
    else this.cached.delete(namespace);
    this.stats = { docs: new Map() };
  }
}
