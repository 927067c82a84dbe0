import type pg from "pg";
import { RamemError } from "../../model/errors.js";
import { inTransaction } from "./in-transaction.js";
import { HNSW_INDEX_DEFINITION, HNSW_INDEX_NAME, PARALLEL_WORKERS_DEFAULT } from "./dense-index.js";

export const SCHEMA_VERSION = 11;

/**
 * Fills unit_terms from the `lexemes` of the rows `$UNITS u` holds (the units
 * table, or the RETURNING rows of a units INSERT in the same statement) that
 * `$WHERE` selects: weight A is content, anything else the cue, each posting
 * with its unit's doc_len (schema 6). Used by replaceSession, appendUnits and
 * updateUnits.
 */
export function postingsInsert(units: string, where: string): string {
  return `
  INSERT INTO unit_terms (namespace, lexeme, unit_id, tf_content, tf_cue, doc_len)
  SELECT u.namespace, x.lexeme, u.id, count(*) FILTER (WHERE w = 'A'), count(*) FILTER (WHERE w <> 'A'), u.doc_len
  FROM ${units} u, unnest(u.lexemes) AS x (lexeme, positions, weights), unnest(x.weights) AS w
  WHERE ${where}
  GROUP BY u.namespace, x.lexeme, u.id, u.doc_len`;
}

/** Migration 3's postings, as they were written before schema 6 (no doc_len column yet). */
const POSTINGS_SELECT_V3 = `
  INSERT INTO unit_terms (namespace, lexeme, unit_id, tf_content, tf_cue)
  SELECT u.namespace, x.lexeme, u.id, count(*) FILTER (WHERE w = 'A'), count(*) FILTER (WHERE w <> 'A')
  FROM units u, unnest(u.lexemes) AS x (lexeme, positions, weights), unnest(x.weights) AS w
  GROUP BY u.namespace, x.lexeme, u.id`;

/**
 * A unit that states a state or carries a user's supersession correction
 * (migration 9's partial index). The LIKEs come first because a json body is
 * parsed again by every operator on it, and they pass only the bodies that
 * can hold the key (JSON.stringify writes it as `"states":[{`; a quote inside
 * a string value is escaped, so no text can fake it); the json test decides.
 */
export const STATE_UNIT_CONDITION =
  `((body::text LIKE '%"states":[{%' AND CASE WHEN json_typeof(body #> '{context,states}') = 'array' THEN json_array_length(body #> '{context,states}') > 0 ELSE false END)` +
  ` OR (body::text LIKE '%"supersession":%' AND json_typeof(body -> 'supersession') IS NOT NULL))`;

/** pgvector's HNSW index takes at most this many dimensions for type vector. */
export const HNSW_MAX_DIMS = 2000;

/**
 * What keeps `unit_vectors.repeats` true for every row but the first (by
 * unit id) of each vector value of a namespace, whatever writes: a row
 * inserted with the value of a row already there is a repeat (a BEFORE row
 * trigger, which sees the rows its own statement inserted before); when a
 * first row goes, the first of the copies left takes its place (an AFTER
 * statement trigger: one UPDATE, which puts it into the partial index). A
 * value is found by the md5 of its text (an expression index), then compared
 * whole. Rows are never updated otherwise: a changed vector is deleted and
 * inserted (postgres-writes.ts), and an UPDATE of the embedding is refused.
 * Each statement can run again (the migration may meet a table that has them).
 */
const VECTOR_REPEATS_DDL: readonly string[] = [
  `CREATE INDEX IF NOT EXISTS unit_vectors_ns_value ON unit_vectors (namespace, (md5(embedding::text)::uuid))`,
  `CREATE OR REPLACE FUNCTION ramem_vector_repeats() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    NEW.repeats := EXISTS (SELECT 1 FROM unit_vectors v WHERE v.namespace = NEW.namespace
                             AND md5(v.embedding::text)::uuid = md5(NEW.embedding::text)::uuid AND v.embedding = NEW.embedding);
    RETURN NEW;
  END $fn$`,
  `DROP TRIGGER IF EXISTS unit_vectors_repeats ON unit_vectors`,
  `CREATE TRIGGER unit_vectors_repeats BEFORE INSERT ON unit_vectors FOR EACH ROW EXECUTE FUNCTION ramem_vector_repeats()`,
  `CREATE OR REPLACE FUNCTION ramem_vector_firsts() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE unit_vectors v SET repeats = false
    FROM (SELECT DISTINCT ON (w.namespace, md5(w.embedding::text)) w.namespace, w.unit_id
          FROM (SELECT DISTINCT namespace, embedding FROM removed WHERE NOT repeats) r
          JOIN unit_vectors w ON w.namespace = r.namespace AND md5(w.embedding::text)::uuid = md5(r.embedding::text)::uuid AND w.embedding = r.embedding
          WHERE NOT EXISTS (SELECT 1 FROM unit_vectors f WHERE f.namespace = r.namespace AND NOT f.repeats
                              AND md5(f.embedding::text)::uuid = md5(r.embedding::text)::uuid AND f.embedding = r.embedding)
          ORDER BY w.namespace, md5(w.embedding::text), w.unit_id COLLATE "C") n
    WHERE v.namespace = n.namespace AND v.unit_id = n.unit_id;
    RETURN NULL;
  END $fn$`,
  `DROP TRIGGER IF EXISTS unit_vectors_firsts ON unit_vectors`,
  `CREATE TRIGGER unit_vectors_firsts AFTER DELETE ON unit_vectors REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ramem_vector_firsts()`,
  `CREATE OR REPLACE FUNCTION ramem_vector_unchanged() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    RAISE EXCEPTION 'unit_vectors.embedding is never updated: delete the row and insert it again';
  END $fn$`,
  `DROP TRIGGER IF EXISTS unit_vectors_unchanged ON unit_vectors`,
  `CREATE TRIGGER unit_vectors_unchanged BEFORE UPDATE OF embedding ON unit_vectors FOR EACH ROW EXECUTE FUNCTION ramem_vector_unchanged()`,
];

/** The dimensions of unit_vectors' embedding column. */
const VECTOR_DIMS = "(SELECT atttypmod FROM pg_attribute WHERE attrelid = 'unit_vectors'::regclass AND attname = 'embedding')";

/**
 * Migration 11 on a store with vectors, statement by statement: the old index
 * dropped and the column added, every row but the first of its value marked
 * (before the value index and the triggers exist, and with no HNSW index, so
 * no row is written into either), the triggers, then the partial HNSW index
 * built with the memory its graph needs (dense-index.ts › buildMemoryMb's
 * formula, capped at 4GB, never below the server's setting) and serially,
 * when the dimensions allow one.
 */
const VECTOR_REPEATS_UPGRADE: readonly string[] = [
  `DROP INDEX IF EXISTS ${HNSW_INDEX_NAME}`,
  `ALTER TABLE unit_vectors ADD COLUMN IF NOT EXISTS repeats boolean NOT NULL DEFAULT false`,
  `UPDATE unit_vectors v SET repeats = true
   FROM (SELECT namespace, unit_id, row_number() OVER (PARTITION BY namespace, md5(embedding::text) ORDER BY unit_id COLLATE "C") AS nth FROM unit_vectors) r
   WHERE r.nth > 1 AND v.namespace = r.namespace AND v.unit_id = r.unit_id`,
  ...VECTOR_REPEATS_DDL,
];

/** A DO block that runs `statements` when unit_vectors exists (a store bound to an embedder), then builds the HNSW index. */
function whenVectorsExist(statements: readonly string[]): string {
  const run = statements.map((sql, i) => `EXECUTE $s${i}$${sql}$s${i}$;`).join("\n      ");
  return `
  DO $mig$ BEGIN
    IF to_regclass('unit_vectors') IS NOT NULL THEN
      ${run}
      IF ${VECTOR_DIMS} <= ${HNSW_MAX_DIMS} THEN
        PERFORM set_config('maintenance_work_mem', greatest(pg_size_bytes(current_setting('maintenance_work_mem')) / 1048576,
          least(4096, ceil((SELECT count(*) FROM unit_vectors WHERE NOT repeats) * (4 * ${VECTOR_DIMS} + 800) * 1.1 / 1048576)))::bigint || 'MB', true);
        -- Serial, as rebuildDenseIndex builds by default: the parallel graph finds fewer of the exact neighbours (dense-index.ts › PARALLEL_WORKERS_DEFAULT).
        PERFORM set_config('max_parallel_maintenance_workers', '${PARALLEL_WORKERS_DEFAULT}', true);
        EXECUTE $idx$CREATE INDEX ${HNSW_INDEX_DEFINITION}$idx$;
      END IF;
    END IF;
  END $mig$;`;
}

/**
 * Migration i brings a schema from version i to i + 1. Append, never edit:
 * stores written by older releases replay the tail of this list.
 *
 * Every table has `namespace` as the leading column of its primary key and
 * of every index, and every foreign key includes it: that is what lets the
 * same DDL be distributed by namespace on Citus (ARCHITECTURE.md › Storage).
 *
 * Times are kept twice: the ISO string as given (returned to callers
 * unchanged) and `timestamptz` (compared and indexed).
 *
 * `unit_vectors` is not here: its dimension is only known once an embedder is
 * bound (see createVectorTable).
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    namespace     text        NOT NULL,
    id            text        NOT NULL,
    start_time    text        NOT NULL,
    end_time      text        NOT NULL,
    start_at      timestamptz NOT NULL,
    end_at        timestamptz NOT NULL,
    participants  text[]      NOT NULL,
    content_hash  text        NOT NULL,
    unit_count    integer     NOT NULL,
    PRIMARY KEY (namespace, id)
  );
  CREATE INDEX sessions_ns_start ON sessions (namespace, start_at);
  CREATE INDEX sessions_ns_end ON sessions (namespace, end_at);

  CREATE TABLE units (
    namespace      text        NOT NULL,
    id             text        NOT NULL,
    session_id     text        NOT NULL,
    seq            integer     NOT NULL,
    session_start  timestamptz NOT NULL,
    session_end    timestamptz NOT NULL,
    event_start    timestamptz,
    event_end      timestamptz,
    participants   text[]      NOT NULL,  -- lower-cased, for the participant filter
    entities       text[]      NOT NULL,
    turn_ids       text[]      NOT NULL,  -- provenance (also inside body)
    content        text        NOT NULL,
    cue            text        NOT NULL,
    -- The lexical channel's document: content weighted A, cue weighted B
    -- (ts_rank_cd weights make B count half, as the cue does in SQLite's bm25).
    lexemes        tsvector    GENERATED ALWAYS AS (
                     setweight(to_tsvector('english'::regconfig, content), 'A') ||
                     setweight(to_tsvector('english'::regconfig, cue), 'B')) STORED,
    body           json        NOT NULL,  -- the unit as given; json keeps key order, jsonb would not
    PRIMARY KEY (namespace, id),
    FOREIGN KEY (namespace, session_id) REFERENCES sessions (namespace, id) ON DELETE CASCADE
  );
  CREATE INDEX units_ns_session ON units (namespace, session_id, seq);
  CREATE INDEX units_ns_order ON units (namespace, session_start, session_id, seq);
  CREATE INDEX units_ns_event ON units (namespace, event_start, event_end) WHERE event_start IS NOT NULL;
  CREATE INDEX units_ns_participants ON units USING gin (namespace, participants);
  CREATE INDEX units_ns_entities ON units USING gin (namespace, entities);
  CREATE INDEX units_ns_lexemes ON units USING gin (namespace, lexemes);
  `,
  // 2: document length in tokens, for the BM25 lexical channel's length
  // normalisation (ts_rank_cd needs none). A generated column cannot read
  // another one, so it is computed from the text, like lexemes.
  `
  CREATE FUNCTION ramem_token_count(tsvector) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(cardinality(positions)), 0)::integer FROM unnest($1) $$;
  ALTER TABLE units ADD COLUMN doc_len integer NOT NULL GENERATED ALWAYS AS (
    ramem_token_count(to_tsvector('english'::regconfig, content) || to_tsvector('english'::regconfig, cue))) STORED;
  `,
  // 3: postings for BM25: one row per (unit, lexeme) with its occurrences in
  // content and cue, so a query reads only the postings of its own lexemes
  // instead of unnesting every matching unit's tsvector. Written by
  // replaceSession from units.lexemes; removed with the unit (cascade).
  `
  CREATE TABLE unit_terms (
    namespace   text    NOT NULL,
    lexeme      text    NOT NULL,
    unit_id     text    NOT NULL,
    tf_content  integer NOT NULL,
    tf_cue      integer NOT NULL,
    PRIMARY KEY (namespace, lexeme, unit_id),
    FOREIGN KEY (namespace, unit_id) REFERENCES units (namespace, id) ON DELETE CASCADE
  );
  CREATE INDEX unit_terms_ns_unit ON unit_terms (namespace, unit_id);
  ${POSTINGS_SELECT_V3};
  `,
  // 4: the session span is read from the session row (an append widens it
  // without rewriting the session's units), units carry metadata (jsonb, for
  // filters) and their created/updated times, sessions their metadata;
  // unit_history records what happened to each unit. ramem_iso_ms reads an
  // ISO 8601 string in metadata as epoch milliseconds (NULL for anything
  // else), as SQLite's unixepoch does for the same filter.
  `
  ALTER TABLE units DROP COLUMN session_start, DROP COLUMN session_end;
  ALTER TABLE units ADD COLUMN metadata jsonb, ADD COLUMN created_at text, ADD COLUMN created_ts timestamptz,
                    ADD COLUMN updated_at text, ADD COLUMN updated_ts timestamptz;
  ALTER TABLE sessions ADD COLUMN metadata jsonb;
  CREATE TABLE unit_history (
    namespace      text      NOT NULL,
    unit_id        text      NOT NULL,
    seq            bigserial NOT NULL,
    session_id     text      NOT NULL,
    event          text      NOT NULL,
    at             text      NOT NULL,
    actor          text      NOT NULL,
    text           text,
    previous_text  text,
    PRIMARY KEY (namespace, unit_id, seq)
  );
  CREATE INDEX unit_history_ns_session ON unit_history (namespace, session_id);
  CREATE FUNCTION ramem_iso_ms(t text) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  BEGIN
    IF t !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$' THEN RETURN NULL; END IF;
    IF t ~ '(Z|[+-][0-9]{2}:[0-9]{2})$' THEN RETURN round(extract(epoch FROM t::timestamptz) * 1000); END IF;
    RETURN round(extract(epoch FROM (t::timestamp AT TIME ZONE 'UTC')) * 1000);
  EXCEPTION WHEN others THEN RETURN NULL;
  END $fn$;
  `,
  // 5: BM25's per-namespace statistics (unit count, summed doc_len) kept by
  // statement-level triggers on units, so a search reads one row instead of
  // aggregating the namespace's units on every query.
  `
  CREATE TABLE namespace_stats (
    namespace   text   NOT NULL PRIMARY KEY,
    units       bigint NOT NULL,
    doc_len_sum bigint NOT NULL
  );
  INSERT INTO namespace_stats SELECT namespace, count(*), coalesce(sum(doc_len), 0) FROM units GROUP BY namespace;
  CREATE FUNCTION ramem_stats_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_stats AS s (namespace, units, doc_len_sum)
      SELECT namespace, count(*), coalesce(sum(doc_len), 0) FROM added GROUP BY namespace
    ON CONFLICT (namespace) DO UPDATE SET units = s.units + excluded.units, doc_len_sum = s.doc_len_sum + excluded.doc_len_sum;
    RETURN NULL;
  END $fn$;
  CREATE FUNCTION ramem_stats_remove() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE namespace_stats s SET units = s.units - r.n, doc_len_sum = s.doc_len_sum - r.len
      FROM (SELECT namespace, count(*) AS n, coalesce(sum(doc_len), 0) AS len FROM removed GROUP BY namespace) r
      WHERE s.namespace = r.namespace;
    RETURN NULL;
  END $fn$;
  CREATE FUNCTION ramem_stats_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE namespace_stats s SET doc_len_sum = s.doc_len_sum + d.delta
      FROM (SELECT namespace, sum(len) AS delta FROM (
              SELECT namespace, doc_len AS len FROM added UNION ALL SELECT namespace, -doc_len FROM removed) x
            GROUP BY namespace) d
      WHERE s.namespace = d.namespace;
    RETURN NULL;
  END $fn$;
  CREATE TRIGGER units_stats_insert AFTER INSERT ON units REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ramem_stats_add();
  CREATE TRIGGER units_stats_delete AFTER DELETE ON units REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ramem_stats_remove();
  CREATE TRIGGER units_stats_update AFTER UPDATE ON units REFERENCING NEW TABLE AS added OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ramem_stats_change();
  `,
  // 6: BM25 without reading what it does not need. Each posting carries its
  // unit's doc_len, so scoring reads postings alone and joins units only for
  // the best; namespace_terms keeps each lexeme's document count per
  // namespace (statement-level triggers on unit_terms, cascaded deletes
  // included), so a term in half of a large namespace's units — bm25 weighs
  // it 1e-6 — is left out before its postings are read. A lexeme's row goes
  // with its last posting: a forgotten unit's words do not stay behind.
  `
  ALTER TABLE unit_terms ADD COLUMN doc_len integer;
  UPDATE unit_terms t SET doc_len = u.doc_len FROM units u WHERE u.namespace = t.namespace AND u.id = t.unit_id;
  ALTER TABLE unit_terms ALTER COLUMN doc_len SET NOT NULL;
  CREATE TABLE namespace_terms (
    namespace text   NOT NULL,
    lexeme    text   NOT NULL,
    docs      bigint NOT NULL,
    PRIMARY KEY (namespace, lexeme)
  );
  INSERT INTO namespace_terms SELECT namespace, lexeme, count(*) FROM unit_terms GROUP BY namespace, lexeme;
  CREATE FUNCTION ramem_terms_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_terms AS t (namespace, lexeme, docs)
      SELECT namespace, lexeme, count(*) FROM added GROUP BY namespace, lexeme
    ON CONFLICT (namespace, lexeme) DO UPDATE SET docs = t.docs + excluded.docs;
    RETURN NULL;
  END $fn$;
  CREATE FUNCTION ramem_terms_remove() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    UPDATE namespace_terms t SET docs = t.docs - r.n
      FROM (SELECT namespace, lexeme, count(*) AS n FROM removed GROUP BY namespace, lexeme) r
      WHERE t.namespace = r.namespace AND t.lexeme = r.lexeme;
    -- A second statement: one statement cannot delete the rows its own CTE updated.
    DELETE FROM namespace_terms t USING (SELECT DISTINCT namespace, lexeme FROM removed) r
      WHERE t.namespace = r.namespace AND t.lexeme = r.lexeme AND t.docs <= 0;
    RETURN NULL;
  END $fn$;
  CREATE TRIGGER unit_terms_docs_insert AFTER INSERT ON unit_terms REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ramem_terms_add();
  CREATE TRIGGER unit_terms_docs_delete AFTER DELETE ON unit_terms REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ramem_terms_remove();
  `,
  // 7: postings and vectors without a foreign key. The key's check ran once
  // per posting (~19 per unit) and once per vector and was most of a session
  // write's time: 40-58 ms of a 20-unit session's ~100 ms in a new schema
  // (its cached plan scans units), 7 ms for the vectors. Both are only ever
  // written with their units, in the same statement, so the check never
  // fails; what the keys' cascades did, one statement-level trigger on units
  // does: a deleted unit's postings and vector go with it, by their
  // (namespace, unit_id) indexes, in one DELETE each per namespace (the
  // namespace_terms trigger sees those deletes as it saw the cascade's).
  // unit_vectors exists whenever units do (units are refused before an
  // embedder is bound, and binding creates the table).
  `
  ALTER TABLE unit_terms DROP CONSTRAINT unit_terms_namespace_unit_id_fkey;
  ALTER TABLE IF EXISTS unit_vectors DROP CONSTRAINT IF EXISTS unit_vectors_namespace_unit_id_fkey;
  CREATE FUNCTION ramem_unit_rows_remove() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  DECLARE
    ns text;
    ids text[];
  BEGIN
    FOR ns, ids IN SELECT namespace, array_agg(id) FROM removed GROUP BY namespace LOOP
      DELETE FROM unit_terms WHERE namespace = ns AND unit_id = ANY(ids);
      DELETE FROM unit_vectors WHERE namespace = ns AND unit_id = ANY(ids);
    END LOOP;
    RETURN NULL;
  END $fn$;
  CREATE TRIGGER units_rows_delete AFTER DELETE ON units REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ramem_unit_rows_remove();

  -- A namespace's sessions version: a new value from one sequence for every
  -- statement that inserts, updates or deletes its session rows (unit counts
  -- and hashes included), so a store handle can keep listSessions' answer
  -- until it changes (5,000 sessions took 25-55 ms to read and parse on every
  -- recall at 100k units). Values are never reused, so a namespace's row can
  -- go with its last session (a forgotten namespace leaves no name here).
  CREATE SEQUENCE namespace_sessions_version_seq;
  CREATE TABLE namespace_sessions_version (
    namespace text   NOT NULL PRIMARY KEY,
    version   bigint NOT NULL
  );
  INSERT INTO namespace_sessions_version SELECT namespace, nextval('namespace_sessions_version_seq') FROM (SELECT DISTINCT namespace FROM sessions) n;
  CREATE FUNCTION ramem_sessions_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_sessions_version AS v (namespace, version)
      SELECT namespace, nextval('namespace_sessions_version_seq') FROM (SELECT DISTINCT namespace FROM changed) c
    ON CONFLICT (namespace) DO UPDATE SET version = excluded.version;
    IF TG_OP = 'DELETE' THEN
      DELETE FROM namespace_sessions_version v USING (SELECT DISTINCT namespace FROM changed) c
        WHERE v.namespace = c.namespace AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.namespace = c.namespace);
    END IF;
    RETURN NULL;
  END $fn$;
  CREATE TRIGGER sessions_version_insert AFTER INSERT ON sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_sessions_changed();
  CREATE TRIGGER sessions_version_update AFTER UPDATE ON sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_sessions_changed();
  CREATE TRIGGER sessions_version_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_sessions_changed();
  `,
  // 8: BM25 by MaxScore (lexical/bm25-max-score.ts) and a namespace version.
  // The postings' primary key carries what a posting is scored from, so both
  // reading a term's postings and probing one unit's are index-only scans (a
  // heap page per posting was most of a scan's time). namespace_terms keeps,
  // per lexeme, its largest tf in content and in the cue and the shortest
  // unit it is in: each term's upper bound. Inserts raise and lower them;
  // deletes leave them (an old maximum still bounds what is left), and a
  // lexeme's row goes with its last posting as before. namespace_version
  // moves on every statement that writes a namespace's units or session rows
  // (a correction writes units alone), from one sequence, so a store handle
  // can keep what it derived from the namespace (namespaceVersion); its row
  // goes with the namespace's last unit and session.
  `
  ALTER TABLE unit_terms DROP CONSTRAINT unit_terms_pkey,
    ADD CONSTRAINT unit_terms_pkey PRIMARY KEY (namespace, lexeme, unit_id) INCLUDE (tf_content, tf_cue, doc_len);
  ALTER TABLE namespace_terms ADD COLUMN max_tf_content integer, ADD COLUMN max_tf_cue integer, ADD COLUMN min_doc_len integer;
  UPDATE namespace_terms t SET max_tf_content = x.tf_content, max_tf_cue = x.tf_cue, min_doc_len = x.doc_len
    FROM (SELECT namespace, lexeme, max(tf_content) AS tf_content, max(tf_cue) AS tf_cue, min(doc_len) AS doc_len FROM unit_terms GROUP BY namespace, lexeme) x
    WHERE t.namespace = x.namespace AND t.lexeme = x.lexeme;
  CREATE OR REPLACE FUNCTION ramem_terms_add() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_terms AS t (namespace, lexeme, docs, max_tf_content, max_tf_cue, min_doc_len)
      SELECT namespace, lexeme, count(*), max(tf_content), max(tf_cue), min(doc_len) FROM added GROUP BY namespace, lexeme
    ON CONFLICT (namespace, lexeme) DO UPDATE SET docs = t.docs + excluded.docs,
      max_tf_content = greatest(t.max_tf_content, excluded.max_tf_content),
      max_tf_cue = greatest(t.max_tf_cue, excluded.max_tf_cue),
      min_doc_len = least(t.min_doc_len, excluded.min_doc_len);
    RETURN NULL;
  END $fn$;

  CREATE SEQUENCE namespace_version_seq;
  CREATE TABLE namespace_version (
    namespace text   NOT NULL PRIMARY KEY,
    version   bigint NOT NULL
  );
  INSERT INTO namespace_version SELECT namespace, nextval('namespace_version_seq') FROM (SELECT namespace FROM sessions UNION SELECT namespace FROM units) n;
  CREATE FUNCTION ramem_namespace_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
  BEGIN
    INSERT INTO namespace_version AS v (namespace, version)
      SELECT namespace, nextval('namespace_version_seq') FROM (SELECT DISTINCT namespace FROM changed) c
    ON CONFLICT (namespace) DO UPDATE SET version = excluded.version;
    IF TG_OP = 'DELETE' THEN
      DELETE FROM namespace_version v USING (SELECT DISTINCT namespace FROM changed) c
        WHERE v.namespace = c.namespace
          AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.namespace = c.namespace)
          AND NOT EXISTS (SELECT 1 FROM units u WHERE u.namespace = c.namespace);
    END IF;
    RETURN NULL;
  END $fn$;
  CREATE TRIGGER units_version_insert AFTER INSERT ON units REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  CREATE TRIGGER units_version_update AFTER UPDATE ON units REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  CREATE TRIGGER units_version_delete AFTER DELETE ON units REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  CREATE TRIGGER sessions_namespace_version_insert AFTER INSERT ON sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  CREATE TRIGGER sessions_namespace_version_update AFTER UPDATE ON sessions REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  CREATE TRIGGER sessions_namespace_version_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ramem_namespace_changed();
  `,
  // 9: the units state validity is derived from (listStateUnits: a few
  // percent of a namespace) by a partial index, instead of a scan of every
  // body of the namespace on each change of it (~1 s at 100k units). The
  // WHERE must stay the same text as STATE_UNIT_CONDITION, or the planner
  // cannot prove the index applies.
  `
  CREATE INDEX IF NOT EXISTS units_ns_state ON units (namespace) WHERE ${STATE_UNIT_CONDITION};
  `,
  // 10: no statement reads units.entities through an index (context matching
  // reads them from the units it has), so the GIN index on them was a write
  // cost alone, one entry per entity: a long assistant turn holds hundreds.
  `
  DROP INDEX IF EXISTS units_ns_entities;
  `,
  // 11: repeated vectors out of the HNSW graph. A namespace's copies of one
  // vector (a repeated text: "Sounds good!") sink pgvector's graph: copies
  // never prune each other from a neighbour list, so a group of them links
  // only to itself and a search that walks in cannot walk out. The scale
  // bench's 1M units hold 610k distinct vectors, in groups of up to 1,916, and
  // its graph gave dense recall@100 0.776 to 0.906 from build to build. Now
  // only the first row of each value (`repeats` false) is in the index, and a
  // search adds the copies of what it finds (dense-search.ts). The triggers of
  // VECTOR_REPEATS_DDL keep one first row per value; an existing index is
  // replaced by the partial one, built here once (VECTOR_REPEATS_UPGRADE).
  whenVectorsExist(VECTOR_REPEATS_UPGRADE),
];


/**
 * One lock for every ramem migration in the database: extensions are
 * database-wide, so two processes migrating two schemas must not race either.
 * The key store (postgres-api-keys.ts) takes it too: both may create a schema.
 */
export const MIGRATION_LOCK = "ramem:migrate";

export type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

async function currentVersion(db: Queryable, schema: string): Promise<number> {
  // A catalog query with a fresh snapshot, not to_regclass: an advisory lock
  // does not refresh the catalog cache, so to_regclass could miss a table that
  // the migrator we just waited for has committed.
  const meta = await db.query("SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename = 'meta'", [schema]);
  if (meta.rowCount === 0) return 0;
  const row = await db.query<{ value: string }>(`SELECT value FROM "${schema}".meta WHERE key = 'schema_version'`);
  return row.rows[0] ? Number(row.rows[0].value) : 0;
}

function checkNotNewer(version: number, where: string): void {
  if (version > SCHEMA_VERSION) {
    throw new RamemError("SCHEMA_TOO_NEW", `store schema version ${version} is newer than this ramem supports (${SCHEMA_VERSION})`, {
      where,
      hint: "upgrade ramem, or use another schema (?schema=...) or database",
    });
  }
}

function extensionError(cause: unknown, where: string): RamemError {
  const msg = (cause as Error).message ?? String(cause);
  return new RamemError("STORE_OPEN_FAILED", `cannot enable a PostgreSQL extension: ${msg}`, {
    where,
    hint:
      "ramem needs the extensions vector (pgvector 0.8+) and btree_gin; a superuser can run " +
      "CREATE EXTENSION vector; CREATE EXTENSION btree_gin; in this database once (scripts/postgres-test-server.sh does it for the test server)",
    cause,
  });
}

/**
 * Brings `schema` to SCHEMA_VERSION. The version is read once without a lock
 * (the common case: nothing to do), then again under a transaction-level
 * advisory lock, so concurrent processes opening a fresh database run each
 * migration exactly once.
 */
export async function migrate(pool: pg.Pool, schema: string, where: string): Promise<void> {
  const seen = await currentVersion(pool, schema);
  checkNotNewer(seen, where);
  if (seen === SCHEMA_VERSION) return;
  await inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [MIGRATION_LOCK]);
    let version = await currentVersion(client, schema);
    checkNotNewer(version, where);
    if (version < SCHEMA_VERSION) {
      await client.query("SET LOCAL client_min_messages = warning");
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      try {
        // Extensions live in public (on the search path of every store), never
        // in a store's own schema, which a test may drop.
        await client.query("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public");
        await client.query("CREATE EXTENSION IF NOT EXISTS btree_gin SCHEMA public");
      } catch (cause) {
        throw extensionError(cause, where);
      }
      await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".meta (key text PRIMARY KEY, value text NOT NULL)`);
      for (; version < SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version]!);
      await client.query(
        `INSERT INTO "${schema}".meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(SCHEMA_VERSION)],
      );
    }
  });
}

/**
 * DDL for the vector table of a `dims`-dimensional embedder, run once by the
 * first bindEmbedder. HNSW (cosine) only up to HNSW_MAX_DIMS; above it every
 * dense search is exact.
 */
export function vectorTableDdl(dims: number): string {
  const table = `
    CREATE TABLE unit_vectors (
      namespace  text        NOT NULL,
      unit_id    text        NOT NULL,
      embedding  vector(${dims}) NOT NULL,
      -- Another row of the namespace holds the same vector (schema 11): not in the HNSW index.
      repeats    boolean     NOT NULL DEFAULT false,
      -- No foreign key to units (schema 7): vectors are written with their
      -- units, and the units delete trigger removes them.
      PRIMARY KEY (namespace, unit_id)
    );${VECTOR_REPEATS_DDL.join(";\n")};`;
  const index = dims <= HNSW_MAX_DIMS ? `CREATE INDEX ${HNSW_INDEX_DEFINITION};` : "";
  return table + index;
}
