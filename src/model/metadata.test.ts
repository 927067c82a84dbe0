import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { MetadataSchema, checkMetadata, metadataProblem } from "./metadata.js";
import { RamemError } from "./errors.js";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";

describe("reserved metadata keys", () => {
  // JSON.parse makes "__proto__" an own property: the shape a REST body or a file arrives in.
  const parsed = (json: string) => JSON.parse(json) as unknown;

  it("refuses __proto__, constructor and prototype, at the top and nested, naming the key", () => {
    for (const key of ["__proto__", "constructor", "prototype"]) {
      for (const [json, path] of [
        [`{"${key}": {"x": 1}}`, key],
        [`{"${key}": 1}`, key],
        [`{"a": {"${key}": "v"}}`, `a.${key}`],
        [`{"a": [{"${key}": null}]}`, `a[0].${key}`],
      ] as const) {
        const problem = metadataProblem(parsed(json));
        assert.equal(problem?.path, path, json);
        assert.match(problem?.message ?? "", /is reserved/);
        assert.throws(() => checkMetadata(parsed(json), "metadata"), (e: unknown) => e instanceof RamemError && e.code === "BAD_METADATA" && e.where === `metadata › ${path}`);
      }
    }
  });

  it("the zod schema sees a top-level __proto__ before its copy drops it", () => {
    const r = MetadataSchema.safeParse(parsed('{"__proto__": {"polluted": true}, "project": "apollo"}'));
    assert.equal(r.success, false);
    assert.match(r.error?.issues[0]?.message ?? "", /"__proto__" is reserved/);
    assert.deepEqual(MetadataSchema.parse({ project: "apollo", proto: 1 }), { project: "apollo", proto: 1 }, "ordinary keys pass");
  });

  it("Memory.add refuses such metadata and stores nothing", async () => {
    const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "library" });
    try {
      await assert.rejects(
        memory.add([{ role: "user", content: "hi" }], { metadata: parsed('{"__proto__": {"x": 1}}') as never }),
        (e: unknown) => e instanceof RamemError && e.code === "BAD_METADATA" && e.where === "metadata › __proto__",
      );
      await assert.rejects(memory.add([{ role: "user", content: "hi", metadata: { constructor: 1 } } as never]), (e: unknown) => e instanceof RamemError && /constructor/.test(`${e.where}`));
      assert.deepEqual(await memory.store.listNamespaces(), []);
    } finally {
      await memory.close();
    }
  });
});
