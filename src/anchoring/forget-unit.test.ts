import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import type { Memory } from "../memory.js";
import { forgetUnit } from "./forget-unit.js";
import type { SessionWithTurns } from "../model/conversation.js";

/** A session of one namespace at 10:00 on 1 Jan 2023; turns are [id, speaker, text]. */
function chat(namespace: string, id: string, turns: Array<[string, string, string]>): SessionWithTurns {
  const start = "2023-01-01T10:00:00.000Z";
  return {
    session: { id, namespace, startTime: start, endTime: start, participants: [...new Set(turns.map(([, speaker]) => speaker))] },
    turns: turns.map(([tid, speaker, text]) => ({ id: tid, speaker, text })),
  };
}

describe("forgetUnit", () => {
  let dir: string;
  let memory: Memory;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-forget-"));
    memory = await openMemory({ db: join(dir, "f.db"), embedder: "hash", languageModel: null, env: {} });
    await memory.ingest([
      chat("ns", "s", [
        ["1", "Ann", "Good morning."],
        ["2", "Bob", "My bank PIN is 4729, keep it quiet."],
        ["3", "Ann", "Noted, see you at lunch."],
        ["4", "Bob", "Lunch at noon then."],
      ]),
      chat("other", "other", [["1", "Zed", "Elsewhere."]]),
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

  it("an append by another writer between the forget's read and its write is kept: the forget is redone on the new session", async () => {
    await memory.ingest([
      chat("ns2", "busy", [
        ["1", "Ann", "Morning."],
        ["2", "Bob", "The door code is 5511."],
        ["3", "Ann", "Got it."],
      ]),
    ]);
    const other = await openMemory({ db: join(dir, "f.db"), embedder: "hash", languageModel: null, env: {} });
    try {
      const secret = (await memory.list({ namespace: "ns2" })).find((u) => u.provenance.turnIds[0] === "2")!;
      let interfered = false;
      // Another process appends right after the forget has read the session (it reads vectors next).
      const store = new Proxy(memory.store, {
        get(target, key) {
          if (key === "getUnitEmbeddings" && !interfered) {
            return async (ns: string, ids: readonly string[]) => {
              interfered = true;
              await other.appendTurns({ namespace: "ns2", sessionId: "busy", turns: [{ speaker: "Bob", text: "Lunch at one." }] });
              return target.getUnitEmbeddings(ns, ids);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      assert.equal(await forgetUnit({ store, embedder: memory.embedder }, "ns2", secret.id), true);
      assert.ok(interfered);
      const after = await memory.list({ namespace: "ns2" });
      assert.deepEqual(after.map((u) => u.provenance.turnIds[0]), ["1", "3", "busy:4"]);
      assert.ok(after.every((u) => !/5511/.test(`${u.content} ${u.cue}`)));
    } finally {
      await other.close();
    }
  });
  it("describes the episode again without the forgotten unit: its place and names leave the other units' episode", async () => {
    await memory.ingest([
      chat("trip", "t", [
        ["1", "Ann", "Back from Reykjavik, met Maria there."],
        ["2", "Bob", "How was the weather?"],
        ["3", "Ann", "Cold and windy all week."],
      ]),
    ]);
    const before = await memory.store.listUnits("trip", { sessionId: "t" });
    assert.equal(before[1]!.context.episode?.place, "Reykjavik");
    assert.match(JSON.stringify(before[1]!.context.episode), /Maria/, "the names its turns mention");
    assert.equal(await forgetUnit(memory, "trip", before[0]!.id), true);
    const after = await memory.store.listUnits("trip", { sessionId: "t" });
    assert.equal(after.length, 2);
    for (const u of after) {
      assert.equal(u.context.episode?.id, before[1]!.context.episode?.id, "same episode");
      assert.equal(u.context.episode?.place, null);
      assert.doesNotMatch(JSON.stringify(u), /reykjavik|maria/i);
    }
  });

  it("stays forgotten when the same input is ingested again (the session is skipped), and comes back only from a changed input", async () => {
    const input = chat("again", "a", [
      ["1", "Ann", "My diary password is tulip42."],
      ["2", "Bob", "I will not tell anyone."],
    ]);
    await memory.ingest([input]);
    const [secret] = await memory.list({ namespace: "again" });
    assert.equal(await forgetUnit(memory, "again", secret!.id), true);
    const report = await memory.ingest([input]);
    assert.equal(report.sessionsUnchanged, 1);
    assert.deepEqual((await memory.list({ namespace: "again" })).map((u) => u.provenance.turnIds[0]), ["2"]);
  });
});
