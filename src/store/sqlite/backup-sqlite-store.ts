import Database from "better-sqlite3";
import { existsSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { RamemError } from "../../model/errors.js";

export interface SqliteBackupReport {
  source: string;
  destination: string;
  bytes: number;
  pages: number;
  sessions: number;
  units: number;
  seconds: number;
}

/**
 * A consistent copy of a SQLite store while other processes read and write
 * it (`ramem backup`): SQLite's online backup, all pages in one step, that
 * is one read transaction, so a write meanwhile neither tears the copy nor
 * restarts it (in WAL mode the writer does not wait for it either). The
 * copy holds the memory and the API keys; the dense (HNSW) index beside the
 * store (`.ann`) is derived and is not copied: a large namespace's first
 * search in the copy, or `ramem reindex`, builds it again. The copy gets a
 * store id of its own, so an index written for the original never serves it.
 */
export async function backupSqliteStore(source: string, destination: string, options: { onProgress?: (copiedPages: number, totalPages: number) => void } = {}): Promise<SqliteBackupReport> {
  const from = resolve(source);
  const to = resolve(destination);
  if (!existsSync(from)) throw new RamemError("STORE_NOT_FOUND", `no store at ${from}`, { where: "db", hint: "name the store to back up with --db PATH (or $RAMEM_DB)" });
  if (from === to) throw new RamemError("BAD_BACKUP_TARGET", "the backup would overwrite the store itself", { where: "destination", hint: "name a new file for the copy" });
  if (existsSync(to)) throw new RamemError("BAD_BACKUP_TARGET", `${to} exists: a backup never overwrites a file`, { where: "destination", hint: "name a new file, or remove the old copy first" });
  if (!existsSync(dirname(to))) throw new RamemError("BAD_BACKUP_TARGET", `the folder ${dirname(to)} does not exist`, { where: "destination", hint: "create it first" });
  const started = performance.now();
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const isStore = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'units', 'sessions')").pluck().get() === 3;
    if (!isStore) throw new RamemError("NOT_A_STORE", `${from} is not a ramem store`, { where: "db", hint: "name the .db file ramem serve or ramem ingest uses" });
    const done = await db.backup(to, {
      progress: ({ totalPages, remainingPages }) => {
        options.onProgress?.(totalPages - remainingPages, totalPages);
        // Everything left in the next step: one read transaction (see above).
        return 0x7fffffff;
      },
    });
    options.onProgress?.(done.totalPages, done.totalPages);
  } finally {
    db.close();
  }
  const copy = new Database(to);
  try {
    copy.prepare("UPDATE meta SET value = ? WHERE key = 'store_id'").run(randomBytes(16).toString("hex"));
    const count = (table: string) => Number(copy.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
    const report = { sessions: count("sessions"), units: count("units"), pages: Number(copy.pragma("page_count", { simple: true })) };
    // A copy that is one file: its WAL folded in, so it can be moved, archived or opened read-only.
    copy.pragma("journal_mode = DELETE");
    copy.close();
    return { source: from, destination: to, bytes: statSync(to).size, ...report, seconds: Math.round((performance.now() - started) / 100) / 10 };
  } catch (err) {
    if (copy.open) copy.close();
    throw err;
  }
}
