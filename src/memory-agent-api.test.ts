/**
 * The surface agent code reaches for first (add, get, getAll, update,
 * history, delete, reset, filters, minScore), end to end on an in-memory
 * SQLite store with the hash embedder.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./memory.js";
import { openSqliteStore } from "./store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "./providers/hash-embedder.js";
import { RamemError } from "./model/errors.js";
import type { AddMessage } from "./formats/messages-to-turns.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

async function open(options: Partial<ConstructorParameters<typeof Memory>[0]> = {}): Promise<Memory> {
  return new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "agent", ...options });
}

const code = (c: string, where?: RegExp) => (err: unknown) => {
  assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
  assert.equal(err.code, c, err.message);
  if (where) assert.match(err.where ?? "", where);
  assert.ok(err.hint, "the error says what to do");
  return true;
};

const T0 = new Date("2024-03-01T10:00:00Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

describe("Memory.add", () => {
  it("takes the ecosystem's messages (string and part content, name, createdAt) and ramem's {speaker, text}", async () => {
    const memory = await open({ speakerNames: (ns) => (ns === "agent" ? { user: "Ines", assistant: "Helper" } : {}) });
    const r = await memory.add(
      [
        { role: "user", content: "I moved to Lisbon last month." },
        { role: "assistant", content: [{ type: "text", text: "Nice!" }, { type: "text", text: "Which part of Lisbon?" }] },
        { role: "user", name: "Ines", content: [{ type: "text", text: "Alfama." }, { type: "image", alt: "a view over the river" }], createdAt: "2024-03-01T10:01:00Z" },
        { speaker: "Ines", text: "It is hilly." },
      ],
      { now: T0, metadata: { channel: "web" } },
    );
    assert.equal(r.sessionChoice, "new");
    assert.equal(r.created, true);
    assert.equal(r.unitIds.length, 4);
    const { memories, total } = await memory.getAll();
    assert.equal(total, 4);
    assert.deepEqual(memories.map((u) => u.context.participants[0]), ["Ines", "Helper", "Ines", "Ines"]);
    assert.deepEqual(memories.map((u) => u.context.role ?? null), ["user", "assistant", "user", null]);
    assert.match(memories[1]!.content, /Nice!\nWhich part of Lisbon\?|Nice! Which part/);
    assert.match(memories[2]!.content, /a view over the river/);
    assert.ok(memories.every((u) => u.metadata?.channel === "web"), "the call's metadata is on every unit");
    assert.equal((await memory.store.getSession("agent", r.sessionId))?.metadata?.channel, "web");
  });

  it("continues the latest session within the idle time, starts a new one after it", async () => {
    const memory = await open({ idleMinutes: 30 });
    const first = await memory.add([{ role: "user", content: "My cat is called Miso." }], { now: T0 });
    const soon = await memory.add([{ role: "user", content: "Miso likes tuna." }], { now: minutes(20) });
    assert.equal(soon.sessionChoice, "continued");
    assert.equal(soon.sessionId, first.sessionId);
    const later = await memory.add([{ role: "user", content: "I bought a bike." }], { now: minutes(20 + 31) });
    assert.equal(later.sessionChoice, "new");
    assert.notEqual(later.sessionId, first.sessionId);
    const given = await memory.add([{ role: "user", content: "Back to the cat." }], { now: minutes(200), sessionId: first.sessionId });
    assert.equal(given.sessionChoice, "given");
    assert.equal(given.sessionId, first.sessionId);
    assert.equal((await memory.getAll({ filter: { sessionId: first.sessionId } })).total, 3);
  });

  it("refuses bad input naming the field, and stores nothing", async () => {
    const memory = await open();
    await assert.rejects(memory.add([{ role: "wizard", content: "hi" } as never]), code("BAD_INPUT", /messages\[0\] › role/));
    await assert.rejects(memory.add([{ role: "user", content: "ok" }, { role: "user", content: "   " }]), code("BAD_INPUT", /messages\[1\] › content/));
    await assert.rejects(memory.add([{ role: "user", content: [{ type: "tool-result" }] } as never]), code("BAD_INPUT", /content/));
    await assert.rejects(memory.add([]), code("BAD_INPUT", /messages/));
    await assert.rejects(memory.add([{ role: "user", content: "x" }], { metadata: { "bad key": 1 } }), code("BAD_METADATA", /metadata/));
    await assert.rejects(memory.add([{ role: "user", content: "x" }], { metadata: { big: "x".repeat(5000) } }), code("BAD_METADATA"));
    await assert.rejects(memory.add([{ role: "user", content: "x" }], { metadata: [] as never }), code("BAD_METADATA"));
    await assert.rejects(memory.add([{ role: "user", content: "x", metadata: { when: new Date() as never } }]), code("BAD_METADATA", /messages\[0\]|metadata/));
    await assert.rejects(memory.add([{ role: "user", content: "x" }], { namespace: "no spaces" }), code("BAD_NAMESPACE"));
    assert.equal((await memory.stats()).units, 0);
  });

  it("an error found when the turns are built names the message and field the caller sent, not the turn", async () => {
    const memory = await open();
    const long = "x".repeat(70_000);
    const where = async (messages: readonly AddMessage[]) => {
      const err = await memory.add(messages).then(() => assert.fail("stored"), (e: unknown) => e);
      assert.ok(err instanceof RamemError && err.code === "BAD_INPUT", String(err));
      assert.match(err.message, /70,\d{3} characters; the limit is 64,000/);
      return err.where;
    };
    assert.equal(await where([{ role: "user", content: long }]), "messages[0] › content");
    assert.equal(await where([{ role: "user", content: "hi" }, { role: "assistant", content: [{ type: "text", text: long }] }]), "messages[1] › content");
    assert.equal(await where([{ role: "user", content: "hi" }, { speaker: "Ana", text: long }]), "messages[1] › text");
    // Checked by the session schema rather than the turn builder: named by the message too.
    await assert.rejects(memory.add([{ role: "user", content: "hi", name: "n".repeat(300) }]), code("BAD_INPUT", /^messages\[0\] › name$/));
    // On an append to a stored session as well.
    await memory.add([{ role: "user", content: "first" }], { now: T0 });
    await assert.rejects(memory.add([{ role: "user", content: "ok" }, { role: "user", content: long }], { now: minutes(1) }), code("BAD_INPUT", /^messages\[1\] › content$/));
    assert.equal((await memory.stats()).units, 1);
  });
});

describe("get, getAll, update, history, delete, reset", () => {
  it("pages with a cursor and a total; filters on metadata and built-in fields", async () => {
    const memory = await open();
    for (let i = 0; i < 5; i++) {
      await memory.add([{ role: "user", content: `Note number ${i} about gardening.` }], { now: minutes(i), metadata: { n: i, project: i % 2 ? "odd" : "even" } });
    }
    const page1 = await memory.getAll({ limit: 2 });
    assert.equal(page1.total, 5);
    assert.equal(page1.memories.length, 2);
    const page2 = await memory.getAll({ limit: 2, cursor: page1.nextCursor! });
    const page3 = await memory.getAll({ limit: 2, cursor: page2.nextCursor! });
    assert.equal(page3.nextCursor, null);
    assert.deepEqual([...page1.memories, ...page2.memories, ...page3.memories].map((u) => u.metadata?.n), [0, 1, 2, 3, 4]);
    const odd = await memory.getAll({ filter: { AND: [{ "metadata.project": "odd" }, { "metadata.n": { gte: 2 } }] } });
    assert.deepEqual(odd.memories.map((u) => u.metadata?.n), [3]);
    assert.equal(odd.total, 1);
    const recalled = await memory.recall("gardening note", { filter: { "metadata.project": "even" } });
    assert.ok(recalled.hits.length > 0);
    assert.ok(recalled.hits.every((h) => h.unit.metadata?.project === "even"), "recall returns only filtered units");
    await assert.rejects(memory.getAll({ filter: { colour: "red" } }), code("BAD_FILTER", /colour/));
    await assert.rejects(memory.recall("x", { filter: { sessionId: { gte: 3 } } }), code("BAD_FILTER", /sessionId/));
    await assert.rejects(memory.recall("x", { filter: { "metadata.n": { in: "odd" } } }), code("BAD_FILTER", /in/));
    await assert.rejects(memory.recall("x", { filter: { time: { gte: "yesterday" } } }), code("BAD_FILTER", /time/));
    await assert.rejects(memory.getAll({ cursor: "garbage" }), code("BAD_CURSOR"));
  });

  it("update re-anchors and re-embeds one unit, keeps its id and place; history shows created and updated with the actor; a forgotten unit cannot be updated", async () => {
    const memory = await open();
    const r = await memory.add(
      [
        { role: "user", content: "I live in Porto." },
        { role: "assistant", content: "Porto is lovely." },
      ],
      { now: T0 },
    );
    const id = r.unitIds[0]!;
    const updated = await memory.update(id, { text: "I live in Lisbon since yesterday." }, { actor: "key-ines", now: minutes(5) });
    assert.equal(updated.id, id);
    assert.match(updated.content, /Lisbon/);
    assert.match(updated.content, /\(29 February 2024\)|yesterday \(/, "times in the new text are grounded");
    assert.equal(updated.updatedAt, minutes(5).toISOString());
    assert.equal(updated.createdAt, T0.toISOString());
    assert.deepEqual((await memory.getAll()).memories.map((u) => u.id), r.unitIds, "same place in the session");
    const top = (await memory.recall("Lisbon")).hits[0];
    assert.equal(top?.unit.id, id);
    assert.equal((await memory.recall("Porto", { filter: { sessionId: r.sessionId } })).hits.some((h) => h.unit.id === id && /Porto/.test(h.unit.cue + h.unit.content)), false);
    const next = await memory.get(r.unitIds[1]!);
    assert.doesNotMatch(next!.cue, /Porto/, "the neighbour's cue follows the correction");
    // The episode keeps its id and tells of the corrected place, on both units.
    assert.equal(updated.context.episode?.id, next!.context.episode?.id);
    assert.equal(updated.context.episode?.place, "Lisbon");
    assert.equal(next!.context.episode?.place, "Lisbon", JSON.stringify(next!.context.episode));
    const history = await memory.history(id);
    assert.deepEqual(history.map((e) => [e.event, e.actor]), [["created", "library"], ["updated", "key-ines"]]);
    assert.match(history[1]!.previousText ?? "", /Porto/);
    assert.equal(await memory.delete(id), true);
    assert.equal(await memory.get(id), null);
    assert.deepEqual((await memory.history(id)).map((e) => [e.event, e.text]), [["created", null], ["updated", null], ["forgotten", null]]);
    await assert.rejects(memory.update(id, { text: "again" }), code("UNIT_FORGOTTEN", /id/));
    await assert.rejects(memory.update("u_nope", { text: "again" }), code("UNIT_NOT_FOUND"));
    await assert.rejects(memory.update(r.unitIds[1]!, { text: "  " }), code("BAD_INPUT", /text/));
    assert.equal(await memory.reset("agent"), 1);
    assert.equal((await memory.getAll()).total, 0);
  });

  it("minScore keeps the hits scoring at least it; scores are in [0, 1] and fall with rank", async () => {
    const memory = await open();
    await memory.add(
      ["The heron stands in the pond.", "We ate soup.", "The heron flew off over the pond at dawn.", "Taxes are due in April."].map((content) => ({ role: "user" as const, content })),
      { now: T0 },
    );
    const { hits } = await memory.recall("heron pond");
    assert.ok(hits.length >= 2);
    for (const [i, h] of hits.entries()) {
      assert.ok(h.score >= 0 && h.score <= 1);
      if (i > 0) assert.ok(h.score <= hits[i - 1]!.score, "monotone in rank");
    }
    const cut = hits[1]!.score;
    const kept = (await memory.recall("heron pond", { minScore: cut })).hits;
    assert.deepEqual(kept.map((h) => h.unit.id), hits.filter((h) => h.score >= cut).map((h) => h.unit.id));
    await assert.rejects(memory.recall("heron", { minScore: 2 }), code("BAD_MIN_SCORE"));
    await assert.rejects(memory.recall("heron", { namespace: "bad name!" }), code("BAD_NAMESPACE"));
    assert.deepEqual((await memory.recall("heron", { namespace: "empty-one" })).hits, [], "an empty namespace recalls nothing, without error");
  });
});

describe("history is stored", () => {
  it("survives closing the store: another handle on the file (another process) reads the same events", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-history-"));
    try {
      const path = join(dir, "h.db");
      const first = new Memory({ store: await openSqliteStore(path), embedder: createHashEmbedder() });
      const r = await first.add([{ role: "user", content: "I play the oboe." }], { now: T0, actor: "key-a" });
      await first.update(r.unitIds[0]!, { text: "I play the bassoon." }, { actor: "key-b", now: minutes(1) });
      await first.close();
      const second = new Memory({ store: await openSqliteStore(path), embedder: createHashEmbedder() });
      try {
        const events = await second.history(r.unitIds[0]!);
        assert.deepEqual(events.map((e) => [e.event, e.actor, e.at]), [["created", "key-a", T0.toISOString()], ["updated", "key-b", minutes(1).toISOString()]]);
        assert.match(events[1]!.previousText ?? "", /oboe/);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
