import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import hnswlib from "hnswlib-node";
import { NamespaceLogPosition } from "./namespace-log-position.js";
import { removeStaleTemps, writingTemp, type StaleTemps } from "./dense-index-temps.js";

/**
 * Namespaces with at least this many units are searched through an HNSW
 * index; smaller ones exactly (sqlite-vec). Measured (bench scale): exact
 * search is linear, ~6 ms per 1,000 units here, and LoCoMo's namespaces
 * (300–700 units) stay on the exact path, so their results do not change.
 */
export const ANN_MIN_UNITS = 20_000;

/**
 * HNSW parameters. Measured on the scale bench's 100k namespace (256-dim
 * hash vectors, recall@100 against brute force): with M 16 and construction
 * ef 100, search ef 200 / 400 / 600 / 1000 give 0.85 / 0.91 / 0.93 / 0.99 at
 * about 1 / 2 / 4 / 8 ms on the store's own graph. Other builds of the same
 * vectors are worse (a quarter of them are duplicates): four hnswlib seeds
 * gave 0.837–0.987 at ef 800, 0.905–0.996 at 1,600 and 0.967–0.998 at
 * 2,400 (research/compare-hnsw-duplicates.ts; docs/experiments.md ›
 * Duplicate vectors and HNSW recall), so 2,400, the least that reached 0.95
 * on every build: ~2.5 ms more per search at 100k (README › Numbers › Scale,
 * eighth round).
 */
const M = 16;
const EF_CONSTRUCTION = 100;
const EF_SEARCH = 2400;

export interface PrepareOptions {
  rebuild?: boolean;
  ifMissing?: boolean;
  onProgress?: BuildProgress;
}

/** Called while an index is built: vectors added so far, of all to add. */
export type BuildProgress = (done: number, total: number) => void;
const PROGRESS_EVERY = 5_000;

interface IndexMeta {
  /** The store file's id (meta.store_id): an index never serves another file, e.g. one copied over this path. */
  storeId: string;
  embedder: string;
  dimensions: number;
  /** The vec_log position the index holds every change up to. */
  seq: number;
  /** The index file and its size, checked before it is read (a torn write is rebuilt, never read). */
  file: string;
  bytes: number;
  labels: number[];
}

interface LoadedIndex {
  index: hnswlib.HierarchicalNSW;
  seq: number;
  labels: Set<number>;
  /** Changes applied since it was last written to disk. */
  unsaved: number;
  /** Points marked deleted: their vectors are still in the index's memory, so it is never written to disk. */
  deletions: number;
}

export interface DenseIndexBinding {
  storeId: string;
  embedder: string;
  dimensions: number;
}

/**
 * The approximate dense index of each large namespace, kept consistent with
 * the units it indexes by a change log, not by trust:
 *
 * - every write transaction that adds or removes a unit's vector appends a
 *   row to vec_log (namespace, unit rowid, added) in the same transaction;
 * - an index records the log position (seq) it holds everything up to; a
 *   search first reads the namespace's latest seq and applies the log rows
 *   after the index's own (from any process) before it answers, so a unit
 *   committed before the search is never missing, and hits are joined back
 *   to the units table, so a deleted unit is never served;
 * - the set of labels it holds must then equal the namespace's unit count,
 *   else it is rebuilt from the stored vectors (the truth is always the
 *   vec table);
 * - it is written beside the database (file + meta, each renamed into place,
 *   the meta naming the file and its size), and read back only when the
 *   meta's store id, embedder, size and seq fit: a crash mid-write leaves the
 *   previous pair, or a mismatch that is rebuilt;
 * - a write killed half-way leaves its temp file (pid in the name): the next
 *   writable open removes those whose process is gone (dense-index-temps.ts)
 *   and keeps what it gave back for the report (`staleTemps`).
 */
export class SqliteDenseIndexes {
  private readonly loaded = new Map<string, LoadedIndex>();
  /** Indexes built from the stored vectors so far (prepare reports whether it built one). */
  private builds = 0;
  private readonly position: NamespaceLogPosition;
  /** The temp files of killed index writes removed since this handle opened (on open, and by scrub). */
  readonly staleTemps: StaleTemps;

  constructor(
    private readonly db: Database.Database,
    /** Where index files go (null: in memory only, e.g. for ":memory:" or a read-only handle). */
    private readonly dir: string | null,
    private readonly minUnits: number,
  ) {
    this.position = new NamespaceLogPosition(db);
    // On open, not on the first index load: a store whose namespaces shrank below the threshold never loads one again.
    this.staleTemps = removeStaleTemps(dir);
  }

  /** The report's field for the killed writes' temp files removed (none: nothing, so a clean store's report is unchanged). */
  staleTempsReport(): { staleTemps?: { files: number; bytes: number } } {
    return this.staleTemps.files.length ? { staleTemps: { files: this.staleTemps.files.length, bytes: this.staleTemps.bytes } } : {};
  }

  static dirFor(dbPath: string): string {
    return `${dbPath}.ann`;
  }

  /**
   * The namespace's `k` nearest units as [rowid, cosine distance], or null
   * when the namespace is below the threshold (or the index cannot return
   * min(k, units) hits): the caller then searches exactly.
   */
  search(namespace: string, vector: Float32Array, k: number, binding: DenseIndexBinding): Array<{ rowid: number; distance: number }> | null {
    const seq = this.position.latestSeq(namespace);
    const count = this.position.unitCount(namespace, seq);
    if (count < this.minUnits) {
      this.loaded.delete(namespace);
      return null;
    }
    const entry = this.current(namespace, seq, count, binding);
    const want = Math.min(k, entry.labels.size);
    if (want === 0) return [];
    entry.index.setEf(Math.max(EF_SEARCH, want));
    const result = entry.index.searchKnn(Array.from(vector), want);
    if (result.neighbors.length < want) return null;
    return result.neighbors.map((rowid, i) => ({ rowid, distance: result.distances[i]! }));
  }

  /**
   * Builds the namespace's index from its stored vectors now and writes it
   * beside the database, instead of in the first search after the namespace
   * grew past the threshold (100k units: ~2 min here, one core). `rebuild`
   * builds it even when a fitting one is on disk; `ifMissing` leaves a
   * loaded or fitting one as it is (its catch-up from the log is the next
   * search's, not a rewrite of the whole file). Null below the threshold.
   */
  prepare(namespace: string, binding: DenseIndexBinding, options: PrepareOptions = {}): { vectors: number; built: boolean } | null {
    const seq = this.position.latestSeq(namespace);
    const count = this.position.unitCount(namespace, seq);
    if (count < this.minUnits) return null;
    if (options.ifMissing && !options.rebuild && (this.loaded.has(namespace) || this.fittingFile(namespace, seq, binding))) return { vectors: count, built: false };
    const builds = this.builds;
    const entry = options.rebuild ? this.build(namespace, binding, options.onProgress) : this.current(namespace, seq, count, binding, options.onProgress);
    this.loaded.set(namespace, entry);
    // Caught up from the log: written now, so the next process reads it whole.
    if (entry.unsaved > 0) this.persist(namespace, entry, binding);
    return { vectors: entry.labels.size, built: this.builds > builds };
  }

  /** Writes the indexes changed since they were read or built (on close). */
  persistAll(binding: DenseIndexBinding | null): void {
    if (!binding) return;
    for (const [namespace, entry] of this.loaded) if (entry.unsaved > 0) this.persist(namespace, entry, binding);
  }

  /** The index caught up to `seq`, from memory, disk or a rebuild. */
  private current(namespace: string, seq: number, count: number, binding: DenseIndexBinding, onProgress?: BuildProgress): LoadedIndex {
    let entry = this.loaded.get(namespace) ?? this.read(namespace, seq, binding);
    if (entry && entry.seq < seq) this.catchUp(namespace, entry, seq, binding.dimensions);
    if (!entry || entry.labels.size !== count) entry = this.build(namespace, binding, onProgress);
    this.loaded.set(namespace, entry);
    return entry;
  }

  private catchUp(namespace: string, entry: LoadedIndex, seq: number, dimensions: number): void {
    const changes = this.db
      .prepare("SELECT seq, unit_rowid AS rowid, added FROM vec_log WHERE namespace = ? AND seq > ? AND seq <= ? ORDER BY seq")
      .all(namespace, entry.seq, seq) as Array<{ seq: number; rowid: number; added: number }>;
    const vectorOf = this.db.prepare("SELECT embedding FROM vec WHERE rowid = ?").pluck();
    for (const c of changes) {
      if (c.added) {
        // A unit removed again later in the log has no vector any more: its removal row follows.
        const bytes = vectorOf.get(BigInt(c.rowid)) as Buffer | undefined;
        if (!bytes) continue;
        if (entry.index.getCurrentCount() >= entry.index.getMaxElements()) entry.index.resizeIndex(Math.ceil(entry.index.getMaxElements() * 1.5) + 1024);
        entry.index.addPoint(Array.from(toVector(bytes, dimensions)), c.rowid);
        entry.labels.add(c.rowid);
      } else if (entry.labels.delete(c.rowid)) {
        entry.index.markDelete(c.rowid);
        entry.deletions++;
      }
    }
    entry.seq = seq;
    entry.unsaved += changes.length;
  }

  /** From the stored vectors, read in one snapshot with the log position they are at. */
  private build(namespace: string, binding: DenseIndexBinding, onProgress?: BuildProgress): LoadedIndex {
    const { seq, rows } = this.db.transaction(() => ({
      seq: this.position.latestSeq(namespace),
      rows: this.db.prepare("SELECT u.rowid AS rowid, v.embedding AS embedding FROM units u JOIN vec v ON v.rowid = u.rowid WHERE u.namespace = ?").all(namespace) as Array<{
        rowid: number;
        embedding: Buffer;
      }>,
    }))();
    this.builds++;
    const index = new hnswlib.HierarchicalNSW("cosine", binding.dimensions);
    index.initIndex({ maxElements: Math.max(1024, Math.ceil(rows.length * 1.25)), m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 42 });
    const labels = new Set<number>();
    for (const [i, r] of rows.entries()) {
      index.addPoint(Array.from(toVector(r.embedding, binding.dimensions)), r.rowid);
      labels.add(r.rowid);
      if (onProgress && (i + 1) % PROGRESS_EVERY === 0) onProgress(i + 1, rows.length);
    }
    if (rows.length % PROGRESS_EVERY !== 0 || rows.length === 0) onProgress?.(rows.length, rows.length);
    const entry: LoadedIndex = { index, seq, labels, unsaved: rows.length, deletions: 0 };
    this.persist(namespace, entry, binding);
    return entry;
  }

  private metaPath(namespace: string): string | null {
    return this.dir ? join(this.dir, `${Buffer.from(namespace).toString("hex")}.json`) : null;
  }

  private read(namespace: string, seq: number, binding: DenseIndexBinding): LoadedIndex | null {
    const fitting = this.fittingFile(namespace, seq, binding);
    if (!fitting) return null;
    try {
      const index = new hnswlib.HierarchicalNSW("cosine", binding.dimensions);
      index.readIndexSync(fitting.file);
      return { index, seq: fitting.meta.seq, labels: new Set(fitting.meta.labels), unsaved: 0, deletions: 0 };
    } catch {
      // Unreadable or torn: the caller rebuilds from the stored vectors.
      return null;
    }
  }

  /** The index file on disk with its meta when the meta fits this store, embedder and log position (the file itself not read). */
  private fittingFile(namespace: string, seq: number, binding: DenseIndexBinding): { meta: IndexMeta; file: string } | null {
    const metaPath = this.metaPath(namespace);
    if (!metaPath || !existsSync(metaPath)) return null;
    try {
      const meta = JSON.parse(readFileSync(metaPath, "utf8")) as IndexMeta;
      const file = join(dirname(metaPath), meta.file);
      const fits =
        meta.storeId === binding.storeId && meta.embedder === binding.embedder && meta.dimensions === binding.dimensions && meta.seq <= seq && existsSync(file) && statSync(file).size === meta.bytes;
      return fits ? { meta, file } : null;
    } catch {
      return null;
    }
  }

  /**
   * Forgetting deletes: an index file that holds the vector of a unit no
   * longer stored is removed (the next search rebuilds it), and so is the
   * in-memory index of a namespace that had deletions. Run by scrubDeleted.
   */
  scrub(): string[] {
    const removed: string[] = [];
    for (const [namespace, entry] of this.loaded) if (entry.deletions > 0) this.loaded.delete(namespace);
    // A dead writer's temp may hold a forgotten unit's vector; a live writer's is renamed into place and checked like any index (removing it would fail that write).
    const stale = removeStaleTemps(this.dir);
    this.staleTemps.files.push(...stale.files);
    this.staleTemps.bytes += stale.bytes;
    if (!this.dir || !existsSync(this.dir)) return removed;
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      if (!name.endsWith(".json")) continue;
      let meta: IndexMeta | null = null;
      try {
        meta = JSON.parse(readFileSync(path, "utf8")) as IndexMeta;
      } catch {
        meta = null;
      }
      const namespace = Buffer.from(name.slice(0, -".json".length), "hex").toString();
      const present = meta
        ? Number(this.db.prepare("SELECT count(*) FROM units WHERE namespace = ? AND rowid IN (SELECT value FROM json_each(?))").pluck().get(namespace, JSON.stringify(meta.labels)))
        : -1;
      if (meta && present === meta.labels.length) continue;
      if (meta) rmSync(join(this.dir, meta.file), { force: true });
      rmSync(path, { force: true });
      removed.push(namespace);
    }
    return removed;
  }

  private persist(namespace: string, entry: LoadedIndex, binding: DenseIndexBinding): void {
    const metaPath = this.metaPath(namespace);
    // An index with deleted points still holds their vectors: it stays in memory only.
    if (!metaPath || entry.deletions > 0) return;
    mkdirSync(dirname(metaPath), { recursive: true });
    const stem = `${Buffer.from(namespace).toString("hex")}.${entry.seq}.${process.pid}`;
    const file = `${stem}.hnsw`;
    const path = join(dirname(metaPath), file);
    writingTemp(`${path}.tmp`, () => {
      entry.index.writeIndexSync(`${path}.tmp`);
      renameSync(`${path}.tmp`, path);
    });
    let previous: string | null = null;
    try {
      previous = (JSON.parse(readFileSync(metaPath, "utf8")) as IndexMeta).file;
    } catch {
      previous = null;
    }
    const meta: IndexMeta = { ...binding, seq: entry.seq, file, bytes: statSync(path).size, labels: [...entry.labels] };
    const metaTemp = `${metaPath}.${process.pid}.tmp`;
    writingTemp(metaTemp, () => {
      writeFileSync(metaTemp, JSON.stringify(meta));
      renameSync(metaTemp, metaPath);
    });
    if (previous && previous !== file) rmSync(join(dirname(metaPath), previous), { force: true });
    entry.unsaved = 0;
  }
}

function toVector(bytes: Buffer, dimensions: number): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + dimensions * 4));
}
