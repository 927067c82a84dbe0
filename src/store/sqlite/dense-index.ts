import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import hnswlib from "hnswlib-node";
import { NamespaceLogPosition } from "./namespace-log-position.js";
import { removeStaleTemps, writingTemp, type StaleTemps } from "./dense-index-temps.js";
import { buildShardsInParallel } from "./dense-index-build.js";

/**
 * Namespaces with at least this many units are searched through an HNSW
 * index; smaller ones exactly (sqlite-vec). Measured (bench scale): exact
 * search is linear, ~6 ms per 1,000 units here, and LoCoMo's namespaces
 * (300–700 units) stay on the exact path, so their results do not change.
 */
export const ANN_MIN_UNITS = 20_000;

/**
 * HNSW parameters, measured on the scale bench's hash vectors (256-dim,
 * recall@100 against brute force; research/compare-hnsw-duplicates.ts,
 * docs/experiments.md › Duplicate vectors and HNSW recall, › The graph's
 * degree). Recall varies more from build to build than with any setting, so
 * each figure is four hnswlib seeds. A query misses all or nothing: the walk
 * settles in a region of near matches and never reaches the true ones. More
 * links per point (M) open those regions: at 300k vectors, search ef 2,400,
 * M 16 gave 0.885–0.956 (mean 0.919), M 48 0.915–0.989 (mean 0.952), M 64
 * 0.966 on one build; at 100k M 48 reaches at ef 800 what M 16 needs 2,400
 * for (0.959–0.989 against 0.837–0.987), and at 1M (two shards) the bench's
 * dense recall@100 went 0.914 → 0.956. The price: the build takes 1.3–1.6×
 * as long and the index file is a fifth larger; a 1M search 24 ms against 21.
 * Search ef 2,400 is the least that reaches 0.95 on most builds at 300k.
 */
const M = 48;
const EF_CONSTRUCTION = 100;
const EF_SEARCH = 2400;

/**
 * A namespace's index is split into shards of at least this many vectors,
 * one per core at most, each built on a thread of its own (hnswlib adds one
 * point at a time on one thread): a 1M namespace on 2 cores is two graphs of
 * 500k, built at once; a search asks every shard and merges. Below it
 * (every namespace up to 250k units) the index stays one graph, as before.
 */
export const SHARD_MIN_VECTORS = 250_000;

function shardCount(vectors: number, options: { minVectors?: number; threads?: number }): number {
  return Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.floor(vectors / (options.minVectors ?? SHARD_MIN_VECTORS))));
}

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
  /** The shards' files and sizes, checked before they are read (a torn write is rebuilt, never read). */
  files?: Array<{ file: string; bytes: number }>;
  /** A one-graph index written before shards (read as one shard). */
  file?: string;
  bytes?: number;
  labels: number[];
}

function filesOf(meta: IndexMeta): Array<{ file: string; bytes: number }> {
  return meta.files ?? (meta.file !== undefined ? [{ file: meta.file, bytes: meta.bytes ?? -1 }] : []);
}

interface LoadedIndex {
  /** One graph per shard; a vector is in exactly one. */
  shards: hnswlib.HierarchicalNSW[];
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
    private readonly shardOptions: { minVectors?: number; threads?: number } = {},
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
    const query = Array.from(vector);
    const found: Array<{ rowid: number; distance: number }> = [];
    for (const shard of entry.shards) {
      const asked = Math.min(want, shard.getCurrentCount());
      if (asked === 0) continue;
      shard.setEf(Math.max(EF_SEARCH, asked));
      const result = shard.searchKnn(query, asked);
      result.neighbors.forEach((rowid, i) => found.push({ rowid, distance: result.distances[i]! }));
    }
    if (found.length < want) return null;
    return found.sort((a, b) => a.distance - b.distance).slice(0, want);
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
        // Into the smallest shard, so they stay even.
        const shard = entry.shards.reduce((a, b) => (b.getCurrentCount() < a.getCurrentCount() ? b : a));
        if (shard.getCurrentCount() >= shard.getMaxElements()) shard.resizeIndex(Math.ceil(shard.getMaxElements() * 1.5) + 1024);
        shard.addPoint(Array.from(toVector(bytes, dimensions)), c.rowid);
        entry.labels.add(c.rowid);
      } else if (entry.labels.delete(c.rowid)) {
        markDeleted(entry.shards, c.rowid);
        entry.deletions++;
      }
    }
    entry.seq = seq;
    entry.unsaved += changes.length;
  }

  /** From the stored vectors, read in one snapshot with the log position they are at; one thread per shard. */
  private build(namespace: string, binding: DenseIndexBinding, onProgress?: BuildProgress): LoadedIndex {
    const dims = binding.dimensions;
    const { seq, vectors, labels } = this.db.transaction(() => {
      const count = Number(this.db.prepare("SELECT count(*) FROM units u JOIN vec v ON v.rowid = u.rowid WHERE u.namespace = ?").pluck().get(namespace));
      // Shared, so the build threads read the vectors where they are; filled row by row (never all rows as objects at once).
      const vectors = new Float32Array(new SharedArrayBuffer(count * dims * 4));
      const labels = new Float64Array(new SharedArrayBuffer(count * 8));
      let i = 0;
      for (const r of this.db.prepare("SELECT u.rowid AS rowid, v.embedding AS embedding FROM units u JOIN vec v ON v.rowid = u.rowid WHERE u.namespace = ?").iterate(namespace) as Iterable<{ rowid: number; embedding: Buffer }>) {
        vectors.set(toVector(r.embedding, dims), i * dims);
        labels[i++] = r.rowid;
      }
      return { seq: this.position.latestSeq(namespace), vectors, labels };
    })();
    this.builds++;
    const shards = shardCount(labels.length, this.shardOptions);
    const entry: LoadedIndex = { shards: [], seq, labels: new Set(labels), unsaved: labels.length, deletions: 0 };
    if (shards === 1) {
      const index = new hnswlib.HierarchicalNSW("cosine", dims);
      index.initIndex({ maxElements: Math.max(1024, Math.ceil(labels.length * 1.25)), m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 42 });
      for (let i = 0; i < labels.length; i++) {
        index.addPoint(Array.from(vectors.subarray(i * dims, (i + 1) * dims)), labels[i]!);
        if (onProgress && (i + 1) % PROGRESS_EVERY === 0) onProgress(i + 1, labels.length);
      }
      if (labels.length % PROGRESS_EVERY !== 0 || labels.length === 0) onProgress?.(labels.length, labels.length);
      entry.shards.push(index);
    } else {
      const scratch = mkdtempSync(join(tmpdir(), "ramem-hnsw-build-"));
      try {
        const paths = Array.from({ length: shards }, (_, i) => join(scratch, `shard-${i}.hnsw`));
        buildShardsInParallel({ vectors, labels, dimensions: dims, paths, m: M, efConstruction: EF_CONSTRUCTION, seed: 42, ...(onProgress ? { onProgress } : {}) });
        for (const path of paths) {
          const index = new hnswlib.HierarchicalNSW("cosine", dims);
          index.readIndexSync(path);
          entry.shards.push(index);
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }
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
      const shards = fitting.files.map((file) => {
        const index = new hnswlib.HierarchicalNSW("cosine", binding.dimensions);
        index.readIndexSync(file);
        return index;
      });
      return { shards, seq: fitting.meta.seq, labels: new Set(fitting.meta.labels), unsaved: 0, deletions: 0 };
    } catch {
      // Unreadable or torn: the caller rebuilds from the stored vectors.
      return null;
    }
  }

  /** The index files on disk with their meta when the meta fits this store, embedder and log position (the files themselves not read). */
  private fittingFile(namespace: string, seq: number, binding: DenseIndexBinding): { meta: IndexMeta; files: string[] } | null {
    const metaPath = this.metaPath(namespace);
    if (!metaPath || !existsSync(metaPath)) return null;
    try {
      const meta = JSON.parse(readFileSync(metaPath, "utf8")) as IndexMeta;
      const files = filesOf(meta).map((f) => ({ path: join(dirname(metaPath), f.file), bytes: f.bytes }));
      const fits =
        meta.storeId === binding.storeId &&
        meta.embedder === binding.embedder &&
        meta.dimensions === binding.dimensions &&
        meta.seq <= seq &&
        files.length > 0 &&
        files.every((f) => existsSync(f.path) && statSync(f.path).size === f.bytes);
      return fits ? { meta, files: files.map((f) => f.path) } : null;
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
      if (meta) for (const f of filesOf(meta)) rmSync(join(this.dir, f.file), { force: true });
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
    const files = entry.shards.map((shard, i) => {
      const file = entry.shards.length === 1 ? `${stem}.hnsw` : `${stem}.${i}.hnsw`;
      const path = join(dirname(metaPath), file);
      writingTemp(`${path}.tmp`, () => {
        shard.writeIndexSync(`${path}.tmp`);
        renameSync(`${path}.tmp`, path);
      });
      return { file, bytes: statSync(path).size };
    });
    let previous: Array<{ file: string }> = [];
    try {
      previous = filesOf(JSON.parse(readFileSync(metaPath, "utf8")) as IndexMeta);
    } catch {
      previous = [];
    }
    const meta: IndexMeta = { ...binding, seq: entry.seq, files, labels: [...entry.labels] };
    const metaTemp = `${metaPath}.${process.pid}.tmp`;
    writingTemp(metaTemp, () => {
      writeFileSync(metaTemp, JSON.stringify(meta));
      renameSync(metaTemp, metaPath);
    });
    for (const old of previous) if (!files.some((f) => f.file === old.file)) rmSync(join(dirname(metaPath), old.file), { force: true });
    entry.unsaved = 0;
  }
}

/** Marks a vector deleted in the shard that holds it (hnswlib throws for a label it does not hold). */
function markDeleted(shards: readonly hnswlib.HierarchicalNSW[], label: number): void {
  for (const shard of shards) {
    try {
      shard.markDelete(label);
      return;
    } catch {
      // Not in this shard.
    }
  }
}

function toVector(bytes: Buffer, dimensions: number): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + dimensions * 4));
}
