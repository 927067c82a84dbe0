import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import { Memory } from "../memory.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import { exportNamespace } from "./export-namespace.js";
import { decodeEmbedding } from "./export-format.js";
import { SRC_SESSIONS } from "./testing/src-sessions.js";

describe("exportNamespace", () => {
  let dir: string;
  let source: Memory;
  let text: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-export-"));
    source = await openMemory({ db: join(dir, "e.db"), embedder: "hash", languageModel: null, env: {} });
    await source.ingest([
      ...SRC_SESSIONS,
      { session: { id: "o1", namespace: "other", startTime: "2023-06-01T09:00:00.000Z", endTime: "2023-06-01T09:00:00.000Z", participants: ["Zed"] }, turns: [{ id: "z1", speaker: "Zed", text: "Not for export." }] },
    ]);
    text = (await exportNamespace(source, "src", new Date("2026-01-01T00:00:00Z"))).join("\n");
  });
  after(async () => {
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a header, then each session followed by its units with base64 float32 vectors", () => {
    const lines = text.split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], { format: "ramem-export", version: 1, namespace: "src", embedder: "hash-bow@1:256", dimensions: 256, sessions: 2, units: 4, exportedAt: "2026-01-01T00:00:00.000Z" });
    assert.deepEqual(lines.slice(1).map((l) => `${l.type}:${l.type === "session" ? l.session.id : l.unit.provenance.turnIds[0]}`), ["session:s1", "unit:t1", "unit:t2", "unit:t3", "session:s2", "unit:u1"]);
    const v = decodeEmbedding(lines[2].embedding);
    assert.equal(v.length, 256);
  });

  it("holds only its namespace", () => {
    assert.ok(!text.includes("Not for export") && !text.includes('"namespace":"other"'));
  });

  it("the vectors are the embedder's vectors of the unit content", async () => {
    const line = JSON.parse(text.split("\n")[2]!);
    const [expected] = await createHashEmbedder().embed([line.unit.content]);
    assert.deepEqual(decodeEmbedding(line.embedding), expected);
  });

  it("writes the stored vectors without embedding anything (an unreachable remote model exports the same)", async () => {
    const offline = new Memory({
      store: source.store,
      embedder: { ...source.embedder, embed: async () => assert.fail("export must not embed") },
      anchorer: source.anchorer,
    });
    const again = (await exportNamespace(offline, "src", new Date("2026-01-01T00:00:00Z"))).join("\n");
    assert.equal(again, text);
    const units = text.split("\n").map((l) => JSON.parse(l)).filter((l) => l.type === "unit");
    const stored = await source.store.getUnitEmbeddings("src", units.map((l) => l.unit.id));
    for (const l of units) assert.deepEqual(decodeEmbedding(l.embedding), stored.get(l.unit.id));
  });
});
