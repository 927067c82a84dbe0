import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import type { Memory } from "../memory.js";
import { forgetUnit } from "./forget-unit.js";

describe("forgetUnit", () => {
  let dir: string;
  let memory: Memory;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-forget-"));
    memory = await openMemory({ db: join(dir, "f.db"), embedder: "hash", languageModel: null, env: {} });
    await memory.ingest([
      {
        session: { id: "s", namespace: "ns", startTime: "2023-01-01T10:00:00.000Z", endTime: "2023-01-01T10:00:00.000Z", participants: ["Ann", "Bob"] },
        turns: [
          { id: "1", speaker: "Ann", text: "Good morning." },
          { id: "2", speaker: "Bob", text: "My bank PIN is 4729, keep it quiet." },
          { id: "3", speaker: "Ann", text: "Noted, see you at lunch." },
          { id: "4", speaker: "Bob", text: "Lunch at noon then." },
        ],
      },
      { session: { id: "other", namespace: "other", startTime: "2023-01-01T10:00:00.000Z", endTime: "2023-01-01T10:00:00.000Z", participants: ["Zed"] }, turns: [{ id: "1", speaker: "Zed", text: "Elsewhere." }] },
    ]);
  });
  after(async () => {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("deletes the unit and its words from the neighbours' cues; nothing else changes", async () => {
    const units = await memory.list({ namespace: "ns" });
    const secret = units.find((u) => u.provenance.turnIds[0] === "2")!;
    assert.ok(units.some((u) => u.cue.includes("4729")), "fixture: the next unit's cue should hold the previous turn");
    assert.equal(await forgetUnit(memory, "ns", secret.id), true);
    const after = await memory.list({ namespace: "ns" });
    assert.deepEqual(after.map((u) => u.provenance.turnIds[0]), ["1", "3", "4"]);
    assert.ok(!JSON.stringify(after).includes("4729"), "the PIN survives somewhere");
    assert.deepEqual(after[2], units[3]);
    const hits = await memory.recall("bank PIN 4729", { namespace: "ns", k: 10 });
    assert.ok(!JSON.stringify(hits.hits).includes("4729"));
    assert.equal((await memory.store.getSession("ns", "s"))?.unitCount, 3);
    assert.equal((await memory.list({ namespace: "other" })).length, 1);
  });

  it("is namespace-scoped: an id of another namespace is not found and stays", async () => {
    const [z] = await memory.list({ namespace: "other" });
    assert.equal(await forgetUnit(memory, "ns", z!.id), false);
    assert.equal(await forgetUnit(memory, "ns", "u_missing"), false);
    assert.equal((await memory.list({ namespace: "other" })).length, 1);
  });
});
