import { RamemError } from "../model/errors.js";
import { DEFAULT_DB_PATH } from "../open-memory-names.js";

export interface StoreLocationOptions {
  /** `--db`, only when given on the command line. */
  db?: string | undefined;
  /** `--store`, only when given on the command line. */
  store?: string | undefined;
}

/**
 * The one store a command opens: `--store` (or RAMEM_STORE) when given — a
 * postgres:// URL or a SQLite path — else `--db` (or RAMEM_DB, else
 * ./ramem.db). `--store` wins over RAMEM_DB; `--db` and a store location
 * that name different stores are refused rather than guessed between.
 */
export function resolveStoreLocation(opts: StoreLocationOptions, env: NodeJS.ProcessEnv = process.env): string {
  const store = opts.store || env.RAMEM_STORE || undefined;
  if (store === undefined) return opts.db || env.RAMEM_DB || DEFAULT_DB_PATH;
  if (opts.db && opts.db !== store) {
    const from = opts.store ? "--store" : "RAMEM_STORE";
    throw new RamemError("BAD_OPTION", `--db and ${from} name two different stores`, {
      hint: `give one of them: --store takes a postgres:// URL or a SQLite file path, --db a SQLite file${opts.store ? "" : " (or unset RAMEM_STORE)"}`,
    });
  }
  return store;
}
