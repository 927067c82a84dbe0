import { test } from "node:test";
import assert from "node:assert/strict";
import { AUTO_BUILD_MEMORY_CAP_MB, buildMemoryMb } from "./dense-index.js";

test("the build memory a graph needs grows with its vectors and their dimensions, a tenth to spare", () => {
  // 100k 256-dim vectors: pgvector filled 64MB after 37,186 of them (1,805 bytes each), so 100k need ~172MB.
  const at100k = buildMemoryMb(100_000, 256);
  assert.ok(at100k >= 172 && at100k <= 200, String(at100k));
  assert.ok(Math.abs(buildMemoryMb(1_000_000, 256) - 10 * at100k) <= 10, "linear in the vectors");
  assert.ok(buildMemoryMb(1_000_000, 256) > 1024, "1M vectors do not fit in the 1GB the 1M bench built with, 580k of them did");
  assert.ok(buildMemoryMb(100_000, 512) > at100k);
  assert.equal(buildMemoryMb(0, 256), 0);
  assert.ok(buildMemoryMb(1_000_000, 512) <= AUTO_BUILD_MEMORY_CAP_MB, "the cap holds 1M vectors of 512 dimensions");
});
