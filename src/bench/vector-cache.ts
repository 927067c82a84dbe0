import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Embedder } from "../providers/embedder.js";
import { embedAll } from "../anchoring/ingest-sessions.js";

/**
 * Query embeddings kept on disk beside the benchmark store, so a second run
 * (other variants, other K) embeds nothing. Keyed by text: a changed question
 * is simply embedded again.
 */
export async function embedWithCache(embedder: Embedder, path: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const cached = new Map<string, Float32Array>();
  if (existsSync(path)) {
    const raw = JSON.parse(readFileSync(path, "utf8")) as { embedder: string; vectors: Record<string, string> };
    if (raw.embedder === embedder.id) {
      for (const [text, b64] of Object.entries(raw.vectors)) {
        const buf = Buffer.from(b64, "base64");
        cached.set(text, new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4));
      }
    }
  }
  const missing = [...new Set(texts.filter((t) => !cached.has(t)))];
  if (missing.length > 0) {
    const vectors = await embedAll(embedder, missing);
    missing.forEach((t, i) => cached.set(t, vectors[i]!));
    mkdirSync(dirname(path), { recursive: true });
    const out: Record<string, string> = {};
    for (const [t, v] of cached) out[t] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
    writeFileSync(path, JSON.stringify({ embedder: embedder.id, vectors: out }));
  }
  return cached;
}
