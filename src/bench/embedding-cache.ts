import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Embedder } from "../providers/embedder.js";

export interface CachingEmbedder extends Embedder {
  /** Texts served from the cache and texts the model embedded, since this embedder was made. */
  readonly counts: { cached: number; embedded: number };
  close(): void;
}

/**
 * An embedder that remembers every vector it made, keyed by the text, in a
 * SQLite file beside the benchmark stores. The bench store is keyed by the
 * anchorer's version, so a change to anchoring would otherwise re-embed every
 * unit (an hour and a half for the LongMemEval dev split); with this, only
 * texts that really changed are embedded. Several processes may share one
 * file (the parallel ingest workers): WAL, a busy timeout, and INSERT OR
 * IGNORE, since two workers embedding the same text get the same vector.
 */
export function createCachingEmbedder(embedder: Embedder, path: string): CachingEmbedder {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 30000");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS vectors (embedder TEXT NOT NULL, text_hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (embedder, text_hash)) WITHOUT ROWID");
  const get = db.prepare<[string, string], { vector: Buffer }>("SELECT vector FROM vectors WHERE embedder = ? AND text_hash = ?");
  const put = db.prepare("INSERT OR IGNORE INTO vectors (embedder, text_hash, vector) VALUES (?, ?, ?)");
  const putAll = db.transaction((rows: Array<[string, Float32Array]>) => {
    for (const [hash, v] of rows) put.run(embedder.id, hash, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  });
  const counts = { cached: 0, embedded: 0 };
  return {
    specificationVersion: "v1",
    id: embedder.id,
    dimensions: embedder.dimensions,
    maxBatchSize: embedder.maxBatchSize,
    counts,
    async embed(texts) {
      const hashes = texts.map((t) => createHash("sha256").update(t).digest("hex"));
      const out: Array<Float32Array | undefined> = hashes.map((h) => {
        const row = get.get(embedder.id, h);
        // Copied out of the driver's buffer, which it may reuse.
        return row ? new Float32Array(new Uint8Array(row.vector).buffer) : undefined;
      });
      const missing = [...new Set(out.flatMap((v, i) => (v ? [] : [i])).map((i) => texts[i]!))];
      counts.cached += texts.length - out.filter((v) => !v).length;
      if (missing.length > 0) {
        const vectors = await embedder.embed(missing);
        const byText = new Map(missing.map((t, i) => [t, vectors[i]!]));
        putAll(missing.map((t) => [createHash("sha256").update(t).digest("hex"), byText.get(t)!]));
        counts.embedded += missing.length;
        for (const [i, v] of out.entries()) if (!v) out[i] = byText.get(texts[i]!);
      }
      return out as Float32Array[];
    },
    close() {
      db.close();
    },
  };
}
