import type { MemoryUnit } from "../model/memory-unit.js";
import type { Session } from "../model/conversation.js";
import type { FilterNode } from "../model/memory-filter.js";
import type { ChangeStamp, UnitHistoryEvent } from "../model/unit-history.js";
import type { Metadata } from "../model/metadata.js";

/** A unit as written: with its vector. */
export interface UnitRecord {
  unit: MemoryUnit;
  embedding: Float32Array;
}

export interface ScoredUnitId {
  id: string;
  /** Channel-native score, higher is better (BM25 negated, cosine similarity). */
  score: number;
  /** 1-based. */
  rank: number;
}

export interface StoredSession extends Session {
  /** Hash of the session's input and of the anchorer/embedder that built its units. */
  contentHash: string;
  unitCount: number;
  metadata?: Metadata;
}

export interface UnitFilter {
  sessionId?: string;
  /** Units whose participants include this name (case-insensitive). */
  participant?: string;
  /** Session span overlaps [from, to). ISO strings. */
  from?: string;
  to?: string;
  /** A parsed filter (model/memory-filter.ts), rendered as SQL by the dialect. */
  where?: FilterNode;
  limit?: number;
  offset?: number;
}

/** What a search may be narrowed to: the same filter language, inside the search's SQL. */
export interface SearchOptions {
  where?: FilterNode;
}

/** A whole session as written: the session, its content hash and its units with their vectors. */
export interface SessionRecords {
  session: Session;
  contentHash: string;
  units: UnitRecord[];
}

export interface ReplaceSessionOptions {
  /** Write only if the stored session's contentHash is this (null: only if there is no such session). */
  expectedHash?: string | null;
  /** Who and when, for the history events of this write (default: "library", now). */
  change?: ChangeStamp;
  /** How units of the session that the write drops are recorded: "superseded" (default: a re-ingest) or "forgotten" (a forget). */
  removedAs?: "superseded" | "forgotten";
}

export interface AppendUnitsOptions {
  /** The stored session's contentHash: the write is a compare-and-swap on it. */
  expectedHash: string;
  change?: ChangeStamp;
}

export interface UpdateUnitsOptions {
  expectedHash: string;
  change?: ChangeStamp;
}

export interface WriteOptions {
  change?: ChangeStamp;
}

export interface DeleteUnitOptions extends WriteOptions {
  /** The unit's session's stored contentHash: the delete is then a compare-and-swap on it (SESSION_CHANGED, nothing deleted). */
  expectedHash?: string;
}

export interface ScrubOptions {
  /** Also rebuild the storage (SQLite VACUUM; PostgreSQL VACUUM FULL of the store's tables): slower, compacts the files. */
  vacuum?: boolean;
}

/** What scrubDeleted did, and whether deleted bytes may still be readable. */
export interface ScrubReport {
  /** The steps run, in order, e.g. ["fts optimize", "wal checkpoint (truncate)"]. */
  steps: string[];
  /** True when no deleted byte is left in the store's files as far as the dialect can tell. */
  complete: boolean;
  /** When not complete: what remains and how to remove it. */
  note?: string;
}

/** A namespace's size: its sessions and units. */
export interface NamespaceSize {
  namespace: string;
  sessions: number;
  units: number;
}

export interface StoreStats {
  namespaces: number;
  sessions: number;
  units: number;
  embedder: string | null;
  dimensions: number | null;
}

/**
 * MemoryStore contract, version 1. Every method is scoped by namespace: no call
 * reads or writes outside the namespace it names. Every dialect passes the
 * shared contract suite (src/store/contract-suite.ts).
 */
export interface MemoryStore {
  readonly specificationVersion: "v1";
  readonly dialect: string;
  /** Human-readable location (file path, URL without password). */
  readonly location: string;

  /**
   * Bind the store to one embedder. The first call fixes it; a later call with
   * another id or size fails with a RamemError (vectors of two models never mix).
   */
  bindEmbedder(embedderId: string, dimensions: number): Promise<void>;

  getSession(namespace: string, sessionId: string): Promise<StoredSession | null>;
  listSessions(namespace: string): Promise<StoredSession[]>;

  /**
   * Atomically replace a session and all its units: afterwards the store holds
   * exactly `units` for it. On any failure nothing of the call remains.
   * Refused with a RamemError (and the contract suite checks each): units
   * before `bindEmbedder`, a unit of another namespace or whose provenance or
   * session span names another session (SESSION_MISMATCH), two units with one
   * id (DUPLICATE_UNIT), a unit id owned by another session (UNIT_ID_CONFLICT),
   * an embedding of the wrong size.
   *
   * `options.expectedHash` makes it a compare-and-swap for read-modify-write
   * callers (append, forget): the write happens only if the session's stored
   * hash is still that value (null: the session must not exist yet), checked
   * inside the same transaction, else SESSION_CHANGED and nothing is written.
   * That is what keeps two processes appending to one session from losing
   * either's turns; the caller re-reads and tries again.
   */
  replaceSession(session: Session, contentHash: string, units: UnitRecord[], options?: ReplaceSessionOptions): Promise<void>;

  /**
   * Adds units after a stored session's units, and sets the session row
   * (span, participants, metadata, hash, count) to `session`: what an append
   * writes, in time proportional to the new units, not to the session. The
   * stored units are not rewritten; their session span is the session row's
   * (every read shows the current span). A compare-and-swap on
   * `expectedHash` like replaceSession's (SESSION_CHANGED, nothing written;
   * a session that does not exist is SESSION_CHANGED too). Refused like
   * replaceSession: a unit id the session or namespace already holds
   * (UNIT_ID_CONFLICT), a unit of another session, a wrong embedding.
   */
  appendUnits(session: Session, contentHash: string, units: UnitRecord[], options: AppendUnitsOptions): Promise<void>;

  /**
   * Replaces some units of one session in place (same ids, same position),
   * with their new vectors, and sets the session's hash: an update of a
   * unit's text and the cue of its neighbour. A compare-and-swap on
   * `expectedHash`; every id must be a stored unit of `sessionId`
   * (UNIT_NOT_FOUND otherwise, nothing written). Records "updated" for each
   * unit whose content changed.
   */
  updateUnits(namespace: string, sessionId: string, contentHash: string, units: UnitRecord[], options: UpdateUnitsOptions): Promise<void>;

  /** The history of one unit, oldest first; [] for an id the namespace never held. */
  unitHistory(namespace: string, unitId: string): Promise<UnitHistoryEvent[]>;

  /**
   * Writes whole sessions into an empty namespace in one transaction (an
   * import): afterwards the namespace holds all of them or — on any failure,
   * or the process killed half-way — nothing, so the import can simply be run
   * again. Refused with NAMESPACE_NOT_EMPTY when the namespace holds anything
   * (checked inside the transaction), NAMESPACE_MISMATCH for a session of
   * another namespace, and whatever replaceSession refuses for any session.
   */
  restoreNamespace(namespace: string, sessions: readonly SessionRecords[], options?: WriteOptions): Promise<void>;

  /** Units by id, in the order asked; unknown ids (or ids of other namespaces) are left out. */
  getUnits(namespace: string, ids: readonly string[]): Promise<MemoryUnit[]>;
  /**
   * Sessions in time order, and a session's units in the order replaceSession
   * got them (conversation order): recall reads a question's answer as the
   * unit that follows it.
   */
  listUnits(namespace: string, filter?: UnitFilter): Promise<MemoryUnit[]>;
  /**
   * Optional (additive to v1): for each of `unitIds`, the unit that follows
   * it in its session (the next one in listUnits' order for the session), by
   * the id it follows; an id that is last in its session, unknown or of
   * another namespace is left out. Recall reads a question's answer as the
   * unit after it; without this method it lists the question's session.
   */
  nextUnits?(namespace: string, unitIds: readonly string[]): Promise<Map<string, MemoryUnit>>;
  /**
   * Optional (additive to v1): the units the validity of a namespace's states
   * is derived from, in listUnits' order: those that state a state
   * (context.states not empty) or carry a user's supersession correction, and
   * every unit such a correction names as the successor. A few percent of a
   * namespace; without this method they are filtered out of listUnits, which
   * reads and parses every unit (~6 s and ~320 MB at 100k).
   */
  listStateUnits?(namespace: string): Promise<MemoryUnit[]>;
  /** The turn ids a session's units cover, in conversation order (an append checks new ids against them without reading the units). */
  listTurnIds(namespace: string, sessionId: string): Promise<string[]>;
  /** How many units listUnits would return for the filter without limit and offset. */
  countUnits(namespace: string, filter?: UnitFilter): Promise<number>;
  /**
   * The stored vectors of units, by id; unknown ids (or ids of other
   * namespaces) are left out. Lets an append rewrite a session and an export
   * write its vectors without re-embedding anything.
   */
  getUnitEmbeddings(namespace: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;

  /** Lexical (BM25-like) search over content + cue. `terms` are already normalised words. */
  searchLexical(namespace: string, terms: readonly string[], limit: number, options?: SearchOptions): Promise<ScoredUnitId[]>;
  /**
   * Exact or approximate nearest neighbours by cosine similarity; must return
   * min(limit, units) rows — of the units `options.where` selects, when given.
   */
  searchDense(namespace: string, vector: Float32Array, limit: number, options?: SearchOptions): Promise<ScoredUnitId[]>;

  /**
   * The deletes record a "forgotten" event per unit and clear the text of
   * every earlier event of the deleted units, in the same transaction.
   * deleteUnit revises its session's contentHash (store/session-hash.ts):
   * every write that removes a unit changes what other writers'
   * compare-and-swap sees, so none of them can write the unit back.
   */
  deleteUnit(namespace: string, unitId: string, options?: DeleteUnitOptions): Promise<boolean>;
  /** Returns the number of units deleted. */
  deleteSession(namespace: string, sessionId: string, options?: WriteOptions): Promise<number>;
  deleteNamespace(namespace: string, options?: WriteOptions): Promise<number>;
  /**
   * Makes what the deletes above (and replaceSession's replaced units) took
   * out unreadable in the store's own files, as far as the dialect can:
   * Memory's forget calls run it after every delete. Data not deleted is
   * untouched. SQLite: the deleted cells are already zeroed (secure_delete),
   * the FTS index is rebuilt and the WAL checkpointed and truncated, so the
   * .db, -wal and -shm files hold no deleted text; `vacuum` also rebuilds the
   * file. PostgreSQL: deleted rows stay in table pages, indexes and the WAL
   * until VACUUM; only `vacuum` (VACUUM FULL: the tables are rewritten, under
   * an exclusive lock) takes them out of the table files.
   */
  scrubDeleted(options?: ScrubOptions): Promise<ScrubReport>;

  /**
   * Optional (additive to v1): a token that is the same on two calls of one handle only if
   * nothing of the namespace was written in between — by this handle or any
   * other process (a write elsewhere may change it too) — or the namespace
   * is empty both times (PostgreSQL: "0"). Lets a caller keep
   * what it derived from the whole namespace (the session list, the states)
   * across recalls instead of reading it again each time. A dialect without
   * it is read each time.
   */
  namespaceVersion?(namespace: string): Promise<string>;

  listNamespaces(): Promise<string[]>;
  /**
   * The largest namespaces by units, largest first (ties by name), at most
   * `limit`: what an operator's store-size gauges show without one line per
   * tenant of thousands. One grouped read.
   */
  namespaceSizes(limit: number): Promise<NamespaceSize[]>;
  stats(namespace?: string): Promise<StoreStats>;
  /** Earliest session start and latest session end of a namespace, or null when empty. */
  historyRange(namespace: string): Promise<{ start: string; end: string } | null>;

  close(): Promise<void>;
}
