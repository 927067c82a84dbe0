import { test } from "node:test";
import assert from "node:assert/strict";
import { efSearch } from "./dense-search.js";

test("ef_search is ten times k (recall@100 ≥ 0.95 at 100k units on every build measured), at least pgvector's default 40, at most its 1,000", () => {
  assert.equal(efSearch(100), 1000);
  assert.equal(efSearch(10), 100);
  assert.equal(efSearch(3), 40);
  assert.equal(efSearch(1), 40);
  assert.equal(efSearch(200), 1000);
});
