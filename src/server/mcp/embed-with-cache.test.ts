import { it } from "node:test";
import assert from "node:assert/strict";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import type { Embedder } from "../../providers/embedder.js";
import { embedWithCache } from "./embed-with-cache.js";

function counting(): { embedder: Embedder; embedded: string[] } {
  const inner = createHashEmbedder();
  const embedded: string[] = [];
  const embedder: Embedder = {
    specificationVersion: "v1",
    id: inner.id,
    dimensions: inner.dimensions,
    maxBatchSize: inner.maxBatchSize,
    embed: async (texts) => {
      embedded.push(...texts);
      return inner.embed(texts);
    },
  };
  return { embedder, embedded };
}

it("embeds each text once per process and returns the embedder's own vectors, in order", async () => {
  const { embedder, embedded } = counting();
  const first = await embedWithCache(embedder, ["Ana moved to Lisbon.", "Ben plays the cello.", "Ana moved to Lisbon."]);
  assert.deepEqual(embedded, ["Ana moved to Lisbon.", "Ben plays the cello."]);
  const second = await embedWithCache(embedder, ["Ben plays the cello.", "Cy paints.", "Ana moved to Lisbon."]);
  assert.deepEqual(embedded.slice(2), ["Cy paints."], "only the new text is embedded");
  const direct = await createHashEmbedder().embed(["Ben plays the cello.", "Cy paints.", "Ana moved to Lisbon."]);
  assert.deepEqual(second.map((v) => Array.from(v)), direct.map((v) => Array.from(v)));
  assert.equal(first[0], first[2]);
});

it("keeps at most 5,000 vectors, dropping the least recently used", async () => {
  const { embedder, embedded } = counting();
  await embedWithCache(embedder, ["keep me"]);
  await embedWithCache(embedder, Array.from({ length: 4_999 }, (_, i) => `text ${i}`));
  await embedWithCache(embedder, ["keep me"]); // used again: now the most recent
  await embedWithCache(embedder, ["one more"]); // evicts "text 0", the oldest
  embedded.length = 0;
  await embedWithCache(embedder, ["keep me", "text 1"]);
  assert.deepEqual(embedded, []);
  await embedWithCache(embedder, ["text 0"]);
  assert.deepEqual(embedded, ["text 0"]);
});
