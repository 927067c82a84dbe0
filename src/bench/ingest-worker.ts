/**
 * One process of the parallel bench ingest (parallel-ingest.ts): receives
 * conversations, anchors, embeds (through the shared embedding cache) and
 * writes them into the bench store, reporting each session as it goes. Every
 * worker opens its own store connection; sessions of one conversation stay
 * in one worker, so no two workers ever write the same namespace.
 */
import { Memory } from "../memory.js";
import { createAnchorer, createEmbedder, type AnchorerName, type EmbedderName } from "../open-memory.js";
import { createOpenAICompatibleLanguageModel, providerConfigFromEnv } from "../providers/openai-compatible/index.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { createCachingEmbedder } from "./embedding-cache.js";
import { openBenchStore } from "./open-bench-store.js";

export interface IngestJob {
  embedder: EmbedderName;
  anchorer: AnchorerName;
  embeddingCache: string | null;
  store: { location: string | undefined; cachePath: string; key: string };
  conversations: Array<{ namespace: string; sessions: SessionWithTurns[] }>;
}

export type WorkerMessage =
  | { type: "ready" }
  | { type: "progress"; turns: number }
  | { type: "done"; embedded: number; cached: number }
  | { type: "failed"; message: string; code?: string; where?: string; hint?: string };

async function run(job: IngestJob): Promise<void> {
  // With a callback a failed send (the parent just went away) is reported there instead of thrown as an
  // unhandled 'error' event: the worker then stops as on "disconnect".
  const send = (m: WorkerMessage) => {
    if (process.connected) process.send!(m, (err: Error | null) => err && process.exit(1));
  };
  const base = await createEmbedder(job.embedder);
  const caching = job.embeddingCache ? createCachingEmbedder(base, job.embeddingCache) : null;
  const embedder = caching ?? base;
  const llm = providerConfigFromEnv().llm;
  const anchorer = createAnchorer(job.anchorer, llm ? createOpenAICompatibleLanguageModel(llm) : undefined);
  const store = await openBenchStore(job.store.location, job.store.cachePath, job.store.key);
  const memory = new Memory({ store, embedder, anchorer });
  try {
    for (const c of job.conversations) {
      let reported = 0;
      await memory.ingest(c.sessions, {
        onProgress: (p) => {
          send({ type: "progress", turns: p.turnsDone - reported });
          reported = p.turnsDone;
        },
      });
    }
  } finally {
    await memory.close();
    caching?.close();
  }
  send({ type: "done", embedded: caching?.counts.embedded ?? 0, cached: caching?.counts.cached ?? 0 });
}

// A worker whose parent is gone (killed, crashed) stops at once instead of
// ingesting on unseen; a session it was writing is rolled back by the store.
process.on("disconnect", () => process.exit(1));

process.once("message", (job: IngestJob) => {
  run(job).then(
    () => {
      process.removeAllListeners("disconnect");
      process.disconnect();
    },
    (e: unknown) => {
      const err = e as { message?: string; code?: string; where?: string; hint?: string };
      process.send!({ type: "failed", message: err.message ?? String(e), code: err.code, where: err.where, hint: err.hint } satisfies WorkerMessage, () => process.exit(1));
    },
  );
});
process.send!({ type: "ready" } satisfies WorkerMessage);
