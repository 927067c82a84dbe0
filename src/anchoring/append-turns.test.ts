import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "../open-memory.js";
import type { Memory } from "../memory.js";
import { RamemError } from "../model/errors.js";
import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import { appendTurns } from "./append-turns.js";
import { COHESION_WINDOW } from "./segment-episodes.js";

describe("appendTurns", () => {
  let dir: string;
  let memory: Memory;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-append-"));
    memory = await openMemory({ db: join(dir, "a.db"), embedder: "hash", languageModel: null, env: {} });
  });
  after(async () => {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates a missing session from the first turns, dated by startTime, else the first turn's time, else now", async () => {
    const r = await appendTurns(memory, { namespace: "ns", sessionId: "a", turns: [{ speaker: "Ann", text: "First words." }], startTime: "2023-01-01T10:00:00Z" });
    assert.deepEqual([r.created, r.turnIds, r.unitsWritten], [true, ["a:1"], 1]);
    assert.equal((await memory.store.getSession("ns", "a"))?.startTime, "2023-01-01T10:00:00.000Z");
    await appendTurns(memory, { namespace: "ns", sessionId: "b", turns: [{ speaker: "Ann", text: "Timed.", time: "2023-02-02T08:00:00Z" }] });
    assert.equal((await memory.store.getSession("ns", "b"))?.startTime, "2023-02-02T08:00:00.000Z");
    await appendTurns(memory, { namespace: "ns", sessionId: "c", turns: [{ speaker: "Ann", text: "Now." }] }, { now: new Date("2024-03-03T00:00:00Z") });
    assert.equal((await memory.store.getSession("ns", "c"))?.startTime, "2024-03-03T00:00:00.000Z");
  });

  it("appends: keeps the old units as they were, anchors the new turns, ids continue, the span widens", async () => {
    const before = await memory.list({ namespace: "ns", sessionId: "a" });
    const r = await appendTurns(memory, {
      namespace: "ns",
      sessionId: "a",
      turns: [
        { speaker: "Bob", text: "I met Ann at the harbour yesterday.", time: "2023-01-03T09:00:00Z" },
        { id: "custom", speaker: "Ann", text: "And we ate sardines." },
      ],
    });
    assert.deepEqual([r.created, r.turnIds, r.unitsWritten], [false, ["a:2", "custom"], 2]);
    const after = await memory.list({ namespace: "ns", sessionId: "a" });
    assert.equal(after.length, 3);
    assert.deepEqual(after[0], { ...before[0]!, context: { ...before[0]!.context, session: { sessionId: "a", start: "2023-01-01T10:00:00.000Z", end: "2023-01-03T09:00:00.000Z" } } });
    assert.match(after[1]!.content, /harbour yesterday \(2 January 2023\)/);
    const session = await memory.store.getSession("ns", "a");
    assert.deepEqual([session?.endTime, session?.unitCount, session?.participants], ["2023-01-03T09:00:00.000Z", 3, ["Ann", "Bob"]]);
    const next = await appendTurns(memory, { namespace: "ns", sessionId: "a", turns: [{ speaker: "Bob", text: "Numbering goes on." }] });
    // Default ids are positions, as in the native format: this is the session's 4th turn.
    assert.deepEqual(next.turnIds, ["a:4"]);
    const hits = await memory.recall("sardines", { namespace: "ns", k: 1 });
    assert.equal(hits.hits[0]?.unit.provenance.turnIds[0], "custom");
  });

  it("refuses a turn id the session already has, and an empty turn, changing nothing", async () => {
    const before = await memory.list({ namespace: "ns", sessionId: "a" });
    await assert.rejects(appendTurns(memory, { namespace: "ns", sessionId: "a", turns: [{ id: "custom", speaker: "A", text: "again" }] }), (e) => e instanceof RamemError && e.code === "DUPLICATE_TURN");
    await assert.rejects(appendTurns(memory, { namespace: "ns", sessionId: "a", turns: [{ speaker: "A", text: "ok" }, { speaker: "B", text: "  " }] }), (e) => e instanceof RamemError && e.code === "BAD_INPUT" && /turn is empty/.test(e.message) && /turns\[1\] › text/.test(e.where ?? ""));
    assert.deepEqual(await memory.list({ namespace: "ns", sessionId: "a" }), before);
  });

  it("costs O(new turns): embeds and writes only the new turns, reads back only the last episode's window, never the session", async () => {
    const embedded: string[] = [];
    const embedder: Embedder = { ...memory.embedder, embed: (texts) => (embedded.push(...texts), memory.embedder.embed(texts)) };
    const stored = await memory.list({ namespace: "ns", sessionId: "a" });
    const reads: string[] = [];
    const windowReads: number[] = [];
    // Counts the store calls that read or rewrite a whole session: an append makes none of them. The
    // segmenter reads the last few units (and their vectors) to see whether the new turns go on their episode.
    const store = new Proxy(memory.store, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function") return value;
        if (key === "listUnits" || key === "getUnitEmbeddings" || key === "replaceSession" || key === "getUnits") {
          return (...args: unknown[]) => {
            const limit = key === "listUnits" ? (args[1] as { limit?: number } | undefined)?.limit : key === "getUnitEmbeddings" ? (args[1] as unknown[]).length : undefined;
            if (limit !== undefined && limit <= COHESION_WINDOW) windowReads.push(limit);
            else reads.push(String(key));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value.bind(target);
      },
    }) satisfies MemoryStore;
    const before = await memory.store.getUnitEmbeddings("ns", stored.map((u) => u.id));
    const r = await appendTurns({ store, embedder, anchorer: memory.anchorer }, { namespace: "ns", sessionId: "a", turns: [{ speaker: "Ann", text: "A kingfisher flew past." }] });
    assert.deepEqual(reads, [], "no whole-session read or write");
    assert.equal(windowReads.length, 2, "one window of units and its vectors");
    assert.equal(r.reembedded, 0);
    const [added] = await memory.store.getUnits("ns", r.unitIds);
    assert.match(added!.content, /A kingfisher flew past/);
    assert.deepEqual(embedded, [added!.content]);
    const after = await memory.store.getUnitEmbeddings("ns", stored.map((u) => u.id));
    for (const u of stored) assert.deepEqual(after.get(u.id), before.get(u.id), `vector of ${u.id}`);
    const [vector] = await memory.embedder.embed([added!.content]);
    assert.equal((await memory.store.searchDense("ns", vector!, 1))[0]?.id, r.unitIds[0]);
  });

  it("segments appended turns: the same subject goes on the stored episode, a new subject starts one", async () => {
    const say = (texts: string[]) => texts.map((text, i) => ({ speaker: i % 2 ? "Bo" : "Ann", text }));
    await appendTurns(memory, {
      namespace: "ep",
      sessionId: "trip",
      startTime: "2023-05-01T10:00:00Z",
      turns: say([
        "We finally landed in Lisbon, the flight from Boston was long.",
        "How was Lisbon? Did you get to Alfama?",
        "Alfama was lovely, we walked the steep streets up to the castle.",
        "Did you eat the grilled sardines there?",
      ]),
    });
    const more = await appendTurns(memory, { namespace: "ep", sessionId: "trip", turns: say(["Grilled sardines with bread at a tiny place near the castle.", "The castle views over the river must be amazing."]) });
    const garden = await appendTurns(memory, {
      namespace: "ep",
      sessionId: "trip",
      turns: say([
        "Anyway, my tomato plants finally came up in the garden this week.",
        "Tomatoes already? What soil did you use for the garden beds?",
        "Compost soil from the garden centre, and I water the tomato beds every morning.",
        "My basil in the garden never survives the watering.",
      ]),
    });
    const episodeOf = async (ids: string[]) => (await memory.store.getUnits("ep", ids)).map((u) => u.context.episode?.id);
    assert.deepEqual(await episodeOf(more.unitIds), ["trip#trip:1", "trip#trip:1"]);
    const [sardines] = await memory.store.getUnits("ep", [more.unitIds[0]!]);
    assert.deepEqual([sardines!.context.episode!.place, sardines!.context.episode!.lastTurnId], ["Lisbon", "trip:6"]);
    assert.deepEqual(await episodeOf(garden.unitIds), garden.unitIds.map(() => "trip#trip:7"));
  });

  it("two writers with separate locks (two processes) appending to one session lose no turn", async () => {
    // Two Memory objects on one file hold separate locks, as two processes would; only the store's compare-and-swap keeps them apart.
    const other = await openMemory({ db: join(dir, "a.db"), embedder: "hash", languageModel: null, env: {} });
    try {
      const writes = Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other : memory).appendTurns({ namespace: "race", sessionId: "r", turns: [{ speaker: "Ann", text: `Line number ${i}.` }], startTime: "2023-01-01T10:00:00Z" }),
      );
      const reports = await Promise.all(writes);
      assert.equal(reports.filter((r) => r.created).length, 1, "exactly one call created the session");
      const units = await memory.list({ namespace: "race", sessionId: "r" });
      assert.equal(units.length, 12);
      assert.deepEqual(new Set(units.map((u) => /Line number (\d+)/.exec(u.content)![1])), new Set(Array.from({ length: 12 }, (_, i) => String(i))));
      assert.equal(new Set(units.flatMap((u) => u.provenance.turnIds)).size, 12, "every turn got its own id");
    } finally {
      await other.close();
    }
  });
});
