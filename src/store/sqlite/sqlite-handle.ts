/**
 * One open SQLite connection as the store's parts share it: the database
 * handle, its bounded prepared-statement cache (`stmt()`), and the two meta
 * reads every part needs (the embedder binding, the store id). The store
 * (sqlite-store.ts), its writes (sqlite-writes.ts) and its searches
 * (sqlite-search.ts) all prepare through this one cache.
 */
import type Database from "better-sqlite3";
import { bindingFromMeta, type EmbedderBinding } from "../embedder-binding.js";

export class SqliteHandle {
  private readonly statements = new Map<string, Database.Statement>();
  private storeIdValue: string | null = null;

  constructor(
    readonly db: Database.Database,
    readonly location: string,
  ) {}

  // Statements are prepared lazily: the vec table only exists after bindEmbedder,
  // possibly bound by another process after this handle opened.
  stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      // Filters make statement shapes a caller chooses: the cache is bounded.
      if (this.statements.size >= 512) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Drops every prepared statement (close()). */
  clearStatements(): void {
    this.statements.clear();
  }

  /** Read each time rather than cached: another process may have bound the embedder meanwhile. */
  binding(): EmbedderBinding | null {
    const rows = this.stmt("SELECT key, value FROM meta WHERE key IN ('embedder', 'dimensions')").all() as { key: string; value: string }[];
    return bindingFromMeta(rows);
  }

  /** The file's random id (meta.store_id), naming it to its index files; read once. */
  storeId(): string {
    this.storeIdValue ??= (this.stmt("SELECT value FROM meta WHERE key = 'store_id'").pluck().get() as string | undefined) ?? "";
    return this.storeIdValue;
  }
}
