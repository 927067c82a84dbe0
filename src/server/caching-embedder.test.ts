import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { Embedder } from "../providers/embedder.js";
import { createCachingEmbedder } from "./caching-embedder.js";

function counting(inner: Embedder): Embedder & { seen: string[] } {
  const seen: string[] = [];
  return { ...inner, seen, embed: async (texts) => (seen.push(...texts), inner.embed(texts)) };
}

describe("createCachingEmbedder", () => {
  it("embeds each distinct text once and returns the same vectors as the model, in order", async () => {
    const model = counting(createHashEmbedder(32));
    const cached = createCachingEmbedder(model);
    assert.deepEqual([cached.id, cached.dimensions, cached.maxBatchSize], [model.id, model.dimensions, model.maxBatchSize]);
    const first = await cached.embed(["a cat", "a dog", "a cat"]);
    assert.deepEqual(model.seen, ["a cat", "a dog"]);
    assert.deepEqual(first, await createHashEmbedder(32).embed(["a cat", "a dog", "a cat"]));
    const second = await cached.embed(["a dog", "a bird"]);
    assert.deepEqual(model.seen, ["a cat", "a dog", "a bird"]);
    assert.equal(second[0], first[1], "a hit is the vector computed before");
  });

  it("forgets the least recently used text beyond its bound", async () => {
    const model = counting(createHashEmbedder(8));
    const cached = createCachingEmbedder(model, 2);
    await cached.embed(["x"]);
    await cached.embed(["y"]);
    await cached.embed(["x"]); // x is now the most recent
    await cached.embed(["z"]); // evicts y
    assert.equal(cached.cacheSize, 2);
    await cached.embed(["x"]);
    await cached.embed(["y"]);
    assert.deepEqual(model.seen, ["x", "y", "z", "y"]);
  });
});
