import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countingEmbedder } from "../providers/testing/counting-embedder.js";
import { createCachingEmbedder } from "./embedding-cache.js";

test("embedding cache: a text is embedded once, across embedder instances sharing the file, and vectors come back unchanged", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-embcache-"));
  try {
    const inner = countingEmbedder();
    const seen: string[][] = [];
    const embed = inner.embed;
    inner.embed = (texts) => (seen.push([...texts]), embed(texts));
    const path = join(dir, "vectors.db");
    const first = createCachingEmbedder(inner, path);
    const a = await first.embed(["alpha", "beta", "alpha"]);
    assert.equal(inner.texts, 2, "alpha twice in one call is embedded once");
    first.close();
    const second = createCachingEmbedder(inner, path);
    const b = await second.embed(["beta", "gamma", "alpha"]);
    assert.deepEqual(seen.at(-1), ["gamma"], "only the new text reaches the model");
    assert.deepEqual(Array.from(b[0]!), Array.from(a[1]!));
    assert.deepEqual(Array.from(b[2]!), Array.from(a[0]!));
    assert.deepEqual(second.counts, { cached: 2, embedded: 1 });
    assert.equal(second.id, inner.id);
    second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
