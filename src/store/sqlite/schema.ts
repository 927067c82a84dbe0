import type Database from "better-sqlite3";
import { RamemError } from "../../model/errors.js";

export const SCHEMA_VERSION = 5;

/**
 * Migration i brings a database from version i to i + 1. Append, never edit:
 * files written by older releases replay the tail of this list.
 *
 * Times are kept twice: the ISO string as given (returned to callers) and
 * epoch milliseconds (compared), because ISO strings with offsets or varying
 * fractional digits do not sort as text.
 *
 * The vec0 table is not here: its dimension is only known once an embedder is
 * bound (see bindEmbedder).
 */
/** A unit that states a state or carries a user's supersession correction (migration 4's partial index). */
export const STATE_UNIT_CONDITION = "(json_array_length(body, '$.context.states') > 0 OR json_type(body, '$.supersession') IS NOT NULL)";

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  CREATE TABLE sessions (
    namespace     TEXT    NOT NULL,
    id            TEXT    NOT NULL,
    start_time    TEXT    NOT NULL,
    end_time      TEXT    NOT NULL,
    start_ms      INTEGER NOT NULL,
    end_ms        INTEGER NOT NULL,
    participants  TEXT    NOT NULL,
    content_hash  TEXT    NOT NULL,
    unit_count    INTEGER NOT NULL,
    PRIMARY KEY (namespace, id)
  ) WITHOUT ROWID;
  CREATE INDEX sessions_ns_start ON sessions (namespace, start_ms);

  CREATE TABLE units (
    rowid         INTEGER PRIMARY KEY,
    namespace     TEXT    NOT NULL,
    id            TEXT    NOT NULL,
    session_id    TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    session_start INTEGER NOT NULL,
    session_end   INTEGER NOT NULL,
    participants  TEXT    NOT NULL,
    body          TEXT    NOT NULL,
    UNIQUE (namespace, id),
    FOREIGN KEY (namespace, session_id) REFERENCES sessions (namespace, id)
  );
  CREATE INDEX units_ns_session ON units (namespace, session_id, seq);
  CREATE INDEX units_ns_order ON units (namespace, session_start, session_id, seq);

  CREATE VIRTUAL TABLE fts USING fts5(
    content, cue, namespace UNINDEXED,
    tokenize = 'porter unicode61'
  );
  `,
  // 2: the session span is read from the session row (an append widens it
  // without rewriting the session's units), units carry metadata and their
  // created/updated times, sessions their metadata; unit_history records
  // what happened to each unit (created, updated, superseded, forgotten).
  `
  DROP INDEX units_ns_order;
  ALTER TABLE units DROP COLUMN session_start;
  ALTER TABLE units DROP COLUMN session_end;
  ALTER TABLE units ADD COLUMN metadata TEXT;
  ALTER TABLE units ADD COLUMN created_at TEXT;
  ALTER TABLE units ADD COLUMN created_ms INTEGER;
  ALTER TABLE units ADD COLUMN updated_at TEXT;
  ALTER TABLE units ADD COLUMN updated_ms INTEGER;
  ALTER TABLE sessions ADD COLUMN metadata TEXT;

  CREATE TABLE unit_history (
    rowid          INTEGER PRIMARY KEY,
    namespace      TEXT    NOT NULL,
    unit_id        TEXT    NOT NULL,
    session_id     TEXT    NOT NULL,
    event          TEXT    NOT NULL,
    at             TEXT    NOT NULL,
    actor          TEXT    NOT NULL,
    text           TEXT,
    previous_text  TEXT
  );
  CREATE INDEX unit_history_ns_unit ON unit_history (namespace, unit_id, rowid);
  CREATE INDEX unit_history_ns_session ON unit_history (namespace, session_id);
  `,
  // 3: lexical search is restricted to the namespace inside FTS5 (ns_key, a
  // token per namespace, matched with a column filter) instead of matching
  // across the file and filtering afterwards; vec_log records every vector
  // added or removed, in the write's transaction, so an approximate index
  // (dense-index.ts) can tell which changes it has not applied; store_id
  // tells this file's index files from another's.
  `
  CREATE VIRTUAL TABLE fts_v3 USING fts5(
    content, cue, namespace UNINDEXED, ns_key,
    tokenize = 'porter unicode61'
  );
  INSERT INTO fts_v3 (rowid, content, cue, namespace, ns_key) SELECT rowid, content, cue, namespace, 'n' || hex(namespace) FROM fts;
  DROP TABLE fts;
  ALTER TABLE fts_v3 RENAME TO fts;

  CREATE TABLE vec_log (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace  TEXT    NOT NULL,
    unit_rowid INTEGER NOT NULL,
    added      INTEGER NOT NULL
  );
  CREATE INDEX vec_log_ns_seq ON vec_log (namespace, seq);
  INSERT INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16)))) ON CONFLICT (key) DO NOTHING;
  `,
  // 4: the units that state a state or carry a supersession correction, by
  // a partial index (listStateUnits): a few percent of a namespace, read
  // without parsing every unit's JSON. The WHERE must stay the same text as
  // STATE_UNIT_CONDITION, or the planner cannot use the index.
  `
  CREATE INDEX units_ns_state ON units (namespace, session_id, seq) WHERE ${STATE_UNIT_CONDITION};
  `,
  // 5: each unit's source turn ids in a column of their own (a JSON array),
  // so an append reads the session's taken turn ids (listTurnIds) without
  // parsing every unit's body: that parse was a third of an append at turn
  // 400, and grew with the session. Nullable, and read with the body as the
  // fallback: a process of the version before, with the file still open,
  // inserts units without it.
  `
  ALTER TABLE units ADD COLUMN turn_ids TEXT;
  UPDATE units SET turn_ids = json_extract(body, '$.provenance.turnIds');
  `,
];

function currentVersion(db: Database.Database): number {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return 0;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row ? Number(row.value) : 0;
}

function checkNotNewer(version: number, location: string): void {
  if (version > SCHEMA_VERSION) {
    throw new RamemError("SCHEMA_TOO_NEW", `store schema version ${version} is newer than this ramem supports (${SCHEMA_VERSION})`, {
      where: location,
      hint: "upgrade ramem, or open another --db file",
    });
  }
}

/**
 * Brings the file to SCHEMA_VERSION. The version is re-read inside an
 * IMMEDIATE transaction so two processes opening a fresh file at once do not
 * both run the same migration.
 */
export function migrate(db: Database.Database, location: string): void {
  const seen = currentVersion(db);
  checkNotNewer(seen, location);
  if (seen === SCHEMA_VERSION) return;
  db.transaction(() => {
    let version = currentVersion(db);
    checkNotNewer(version, location);
    for (; version < SCHEMA_VERSION; version++) {
      db.exec(MIGRATIONS[version]!);
    }
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      String(SCHEMA_VERSION),
    );
  }).immediate();
}

/** For read-only handles: no writes, just refuse what we cannot read. */
export function checkReadable(db: Database.Database, location: string): void {
  const version = currentVersion(db);
  if (version === 0) {
    throw new RamemError("STORE_NOT_INITIALISED", "this database holds no ramem store", {
      where: location,
      hint: "open it once without --readonly (or ingest into it) first",
    });
  }
  checkNotNewer(version, location);
  // A read-only handle cannot migrate, and the searches need the current layout (the namespace token in FTS, the vector log).
  if (version < SCHEMA_VERSION) {
    throw new RamemError("STORE_NEEDS_UPGRADE", `store schema version ${version} is older than this ramem's (${SCHEMA_VERSION}) and a read-only handle cannot upgrade it`, {
      where: location,
      hint: "open it once without --readonly (e.g. ramem stats --db FILE upgrades it), then read-only again",
    });
  }
}
