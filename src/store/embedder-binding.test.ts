import { test } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { bindingFromMeta, checkEmbedderBinding } from "./embedder-binding.js";

const where = { location: "test.db", hint: "use another store" };

test("bindingFromMeta needs both keys", () => {
  assert.equal(bindingFromMeta([]), null);
  assert.equal(bindingFromMeta([{ key: "embedder", value: "m@1" }]), null);
  assert.deepEqual(bindingFromMeta([{ key: "dimensions", value: "512" }, { key: "embedder", value: "m@1" }, { key: "other", value: "x" }]), {
    embedder: "m@1",
    dimensions: 512,
  });
});

test("checkEmbedderBinding: unbound → false, same → true, other model or size → EMBEDDER_MISMATCH with the store's hint", () => {
  assert.equal(checkEmbedderBinding(null, "m@1", 512, where), false);
  assert.equal(checkEmbedderBinding({ embedder: "m@1", dimensions: 512 }, "m@1", 512, where), true);
  for (const [id, dims] of [["m@2", 512], ["m@1", 256]] as const) {
    assert.throws(
      () => checkEmbedderBinding({ embedder: "m@1", dimensions: 512 }, id, dims, where),
      (e: unknown) => e instanceof RamemError && e.code === "EMBEDDER_MISMATCH" && e.hint === where.hint && e.where === "test.db",
    );
  }
});

test("checkEmbedderBinding refuses an empty id or impossible sizes even on an unbound store", () => {
  for (const [id, dims] of [["", 8], ["m", 0], ["m", 1.5], ["m", 9000]] as const) {
    assert.throws(() => checkEmbedderBinding(null, id, dims, where), (e: unknown) => e instanceof RamemError && e.code === "INVALID_EMBEDDER");
  }
});
