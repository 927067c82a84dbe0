import { Command } from "commander";
import { resolveStoreLocation } from "../store-location.js";
import { isPostgresUrl } from "../../store/open-store.js";
import { backupSqliteStore } from "../../store/sqlite/backup-sqlite-store.js";
import { RamemError } from "../../model/errors.js";
import { createProgress } from "../progress.js";
import { runAction } from "../shared.js";
import { cliOut } from "../io.js";

interface BackupCliOptions {
  db?: string;
  store?: string;
  json?: boolean;
  quiet?: boolean;
}

/** `ramem backup <file>`: a consistent copy of a SQLite store, also while `ramem serve` writes to it. */
export function backupCommand(): Command {
  return new Command("backup")
    .description(
      "Write a consistent copy of a SQLite store to a new file, also while a server reads and writes it (SQLite's online backup, in one read transaction). " +
        "The copy holds every namespace and the API keys; the dense index (.ann) is rebuilt from it when needed. Restore: stop the server, put the copy in place of the .db. " +
        "PostgreSQL: use pg_dump --schema=NAME (docs/operations.md).",
    )
    .argument("<file>", "the new file to write (never overwritten)")
    .option("--db <path>", "SQLite file of the store (default: $RAMEM_DB, else ./ramem.db)")
    .option("--store <location>", "the store's location, as for the other commands (a SQLite file; a postgres:// URL is refused with how to back it up)")
    .option("--json", "machine-readable output on stdout")
    .option("--quiet", "no progress output")
    .action(async (file: string, opts: BackupCliOptions) =>
      runAction(opts.json, async () => {
        const location = resolveStoreLocation(opts);
        if (isPostgresUrl(location)) {
          throw new RamemError("BACKUP_NOT_SQLITE", "ramem backup copies a SQLite store; this one is on PostgreSQL", {
            hint: "use PostgreSQL's own tools: pg_dump --format=custom --schema=<schema> <database> (docs/operations.md › Backup)",
          });
        }
        const progress = createProgress("pages", { quiet: opts.quiet ?? opts.json ?? false });
        const report = await backupSqliteStore(location, file, { onProgress: (done, total) => progress.update(done, total, "copying") }).finally(() => progress.stop());
        cliOut(
          opts.json
            ? `${JSON.stringify(report)}\n`
            : `backed up ${report.source} to ${report.destination}: ${report.sessions} sessions, ${report.units} units, ${(report.bytes / 1048576).toFixed(1)} MiB in ${report.seconds} s\n`,
        );
      }),
    );
}
