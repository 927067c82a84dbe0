import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import { RamemError } from "../model/errors.js";
import { requireNamespace } from "./require-namespace.js";

test("requireNamespace passes a stored namespace and refuses an unknown one, naming what the store holds", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-reqns-"));
  const memory = await openMemory({ db: join(dir, "t.db"), embedder: "hash", languageModel: null, env: {} });
  try {
    await assert.rejects(requireNamespace(memory, "conv"), (err: unknown) => {
      assert.ok(err instanceof RamemError);
      assert.equal(err.code, "NAMESPACE_NOT_FOUND");
      assert.match(err.hint ?? "", /the store is empty: run `ramem ingest FILE` first/);
      return true;
    });
    await memory.ingest([
      {
        session: { id: "S1", namespace: "conv", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: ["Ana"] },
        turns: [{ id: "S1:1", speaker: "Ana", text: "I moved to Lisbon." }],
      },
    ]);
    await requireNamespace(memory, "conv");
    await assert.rejects(requireNamespace(memory, "cnov"), (err: unknown) => {
      assert.ok(err instanceof RamemError);
      assert.equal(err.code, "NAMESPACE_NOT_FOUND");
      assert.match(err.message, /namespace "cnov" holds no sessions in /);
      assert.match(err.hint ?? "", /--namespace: conv \(see `ramem stats`\)/);
      return true;
    });
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
