import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { Anchorer } from "./anchorer.js";
import { createRuleAnchorer } from "./rule-anchorer.js";
import { readConversationFile } from "../formats/conversation-file.js";
import { RamemError } from "../model/errors.js";

const conversation = {
  session: { id: "s1", namespace: "garden", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: [] },
  turns: [
    { id: "s1:1", speaker: "Ann", text: "I planted tulips yesterday." },
    { id: "s1:2", speaker: "user", role: "user" as const, text: "My roses need water." },
  ],
};

const memoryOn = async (anchorer?: Anchorer) => new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), ...(anchorer ? { anchorer } : {}) });

test("reanchor: units re-derived from their verbatim turns with another anchorer; nothing else changes", async () => {
  const memory = await memoryOn();
  await memory.ingest([conversation]);
  const before = await memory.store.listUnits("garden");
  const shouting: Anchorer = {
    ...createRuleAnchorer(),
    id: "shouting@1",
    async anchorSession(s) {
      const r = await createRuleAnchorer().anchorSession(s);
      return { ...r, units: r.units.map((u) => ({ ...u, id: `${u.id}-x`, anchoredBy: "shouting@1", content: u.content.toUpperCase() })) };
    },
  };
  const report = await memory.reanchor("garden", { anchorer: shouting });
  assert.equal(report.unitsWritten, 2);
  const after = await memory.store.listUnits("garden");
  assert.deepEqual(after.map((u) => u.content), before.map((u) => u.content.toUpperCase()));
  assert.deepEqual(after.map((u) => u.source), before.map((u) => u.source), "the verbatim turns travel unchanged");
  await memory.close();
});

test("ingest of an export re-derives the namespace in another store; a unit without verbatim turns is a clear error", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-reexport-"));
  try {
    const source = await memoryOn();
    await source.ingest([conversation]);
    const exported = (await source.exportNamespace("garden")).join("\n");
    const file = join(dir, "garden.jsonl");
    writeFileSync(file, `${exported}\n`);
    const { conversations } = await readConversationFile(file);
    assert.deepEqual(conversations[0]!.sessions, [conversation]);
    const target = await memoryOn();
    await target.ingest(conversations.flatMap((c) => c.sessions));
    assert.deepEqual((await target.store.listUnits("garden")).map((u) => u.content), (await source.store.listUnits("garden")).map((u) => u.content));

    // An export of units stored before turns were kept verbatim can be imported, not re-derived.
    const old = exported.split("\n").map((l) => { const o = JSON.parse(l); if (o.type === "unit") delete o.unit.source; return JSON.stringify(o); }).join("\n");
    writeFileSync(file, `${old}\n`);
    await assert.rejects(readConversationFile(file), (e: unknown) => e instanceof RamemError && e.code === "NO_VERBATIM_TURNS" && /ingest the original conversation file/.test(e.hint ?? ""));
    await source.close();
    await target.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
