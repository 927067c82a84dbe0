/**
 * The library API end to end: Memory on an in-memory SQLite store with the
 * hash embedder (no model, deterministic).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./memory.js";
import { openSqliteStore } from "./store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "./providers/hash-embedder.js";
import { RamemError } from "./model/errors.js";
import type { SessionWithTurns } from "./model/conversation.js";
import type { RecallHit } from "./model/recall.js";
import { createRuleAnchorer } from "./anchoring/rule-anchorer.js";
import { CONTENT_ONLY } from "./retrieval/recall-pipeline.js";

/** recall returns hits, or an outcome holding them (the API is growing a recall frame). */
function hitsOf(r: RecallHit[] | { hits: RecallHit[] }): RecallHit[] {
  return Array.isArray(r) ? r : r.hits;
}

function session(id: string, start: string, lines: Array<[string, string]>, namespace = "library"): SessionWithTurns {
  return {
    session: { id, namespace, startTime: start, endTime: start, participants: [...new Set(lines.map(([s]) => s))] },
    turns: lines.map(([speaker, text], i) => ({ id: `${id}:${i + 1}`, speaker, text })),
  };
}

const SESSIONS: SessionWithTurns[] = [
  session("s1", "2023-01-10T09:00:00.000Z", [
    ["Ines", "I planted three rows of purple carrots behind the shed."],
    ["Oskar", "Where did you buy the seeds?"],
    ["Ines", "At the farmers market in Ghent."],
  ]),
  session("s2", "2023-02-14T18:00:00.000Z", [
    ["Oskar", "My new telescope arrived and I watched Saturn's rings."],
    ["Ines", "The slugs ate half of my lettuce."],
  ]),
  session("s3", "2023-03-20T12:00:00.000Z", [["Oskar", "I adopted a three-legged greyhound called Comet."]]),
];

async function fresh(): Promise<Memory> {
  return new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "library" });
}

test("ingest then recall ranks the relevant unit first, with its provenance and episode", async () => {
  const memory = await fresh();
  try {
    const report = await memory.ingest(SESSIONS);
    assert.equal(report.sessions, 3);
    assert.equal(report.turns, 6);
    assert.equal(report.unitsWritten, 6);
    assert.equal(report.sessionsUnchanged, 0);
    const hits = hitsOf(await memory.recall("Which dog did Oskar adopt? greyhound Comet", { k: 3 }));
    assert.equal(hits.length, 3);
    assert.deepEqual(hits[0]!.unit.provenance, { sessionId: "s3", turnIds: ["s3:1"] });
    assert.equal(hits[0]!.unit.context.session.start, "2023-03-20T12:00:00.000Z");
    assert.equal(hits[0]!.rank, 1);
    assert.ok(hits[0]!.score >= hits[1]!.score);
    const seeds = hitsOf(await memory.recall("farmers market Ghent seeds", { k: 1 }));
    assert.deepEqual(seeds[0]!.unit.provenance.turnIds, ["s1:3"]);
    // Another namespace sees nothing of this one.
    assert.equal(hitsOf(await memory.recall("greyhound Comet", { namespace: "elsewhere", k: 3 })).length, 0);
  } finally {
    await memory.close();
  }
});

test("re-ingesting is idempotent; force rewrites without duplicating", async () => {
  const memory = await fresh();
  try {
    await memory.ingest(SESSIONS);
    const before = await memory.stats();
    const again = await memory.ingest(SESSIONS);
    assert.equal(again.unitsWritten, 0);
    assert.equal(again.sessionsUnchanged, 3);
    assert.deepEqual(await memory.stats(), before);
    const forced = await memory.ingest(SESSIONS, { force: true });
    assert.equal(forced.unitsWritten, 6);
    assert.equal(forced.sessionsUnchanged, 0);
    assert.deepEqual(await memory.stats(), before, "force replaces units, it never adds copies");
    assert.equal((await memory.list()).length, 6);
  } finally {
    await memory.close();
  }
});

test("a changed session has its units replaced: the count follows its turns", async () => {
  const memory = await fresh();
  try {
    await memory.ingest(SESSIONS);
    const changed = session("s1", "2023-01-10T09:00:00.000Z", [
      ["Ines", "I planted four rows of yellow carrots behind the shed."],
      ["Oskar", "Nice."],
    ]);
    const report = await memory.ingest([changed, SESSIONS[1]!, SESSIONS[2]!]);
    assert.equal(report.unitsWritten, 2);
    assert.equal(report.sessionsUnchanged, 2);
    const s1 = await memory.list({ sessionId: "s1" });
    assert.equal(s1.length, 2);
    assert.deepEqual(s1.map((u) => u.provenance.turnIds[0]).sort(), ["s1:1", "s1:2"]);
    assert.ok(s1.every((u) => !/purple|Ghent/.test(u.content)), "no unit of the old version is left");
    assert.equal((await memory.stats()).units, 5);
  } finally {
    await memory.close();
  }
});

test("an invalid session in the middle of a batch: validated before anything is written", async () => {
  const memory = await fresh();
  try {
    await memory.ingest([SESSIONS[0]!]);
    const before = await memory.stats();
    const bad = { session: { id: "bad", namespace: "library", startTime: "not a date", endTime: "not a date", participants: [] }, turns: [] } as unknown as SessionWithTurns;
    const other = session("s9", "2023-05-01T00:00:00.000Z", [["Ines", "This must not be stored."]], "other-ns");
    await assert.rejects(memory.ingest([SESSIONS[1]!, bad, SESSIONS[2]!, other]), (err: unknown) => {
      assert.ok(err instanceof RamemError);
      assert.equal(err.code, "BAD_INPUT");
      assert.match(err.where ?? "", /^session 2 \(bad\)/, "names the failing session");
      assert.match(err.hint ?? "", /nothing of this call was stored/);
      return true;
    });
    assert.deepEqual(await memory.stats(), before, "the valid sessions around it were not written either");
    assert.deepEqual(await memory.store.listNamespaces(), ["library"]);
    assert.equal(await memory.store.getSession("library", "s2"), null);
  } finally {
    await memory.close();
  }
});

test("invalid text (a NUL character, a lone surrogate) in any stored string: refused naming the field and the position, nothing stored", async () => {
  const memory = await fresh();
  try {
    await memory.ingest([SESSIONS[0]!]);
    const before = JSON.stringify(await memory.list());
    const refused = (field: RegExp, what: RegExp) => (err: unknown) => {
      assert.ok(err instanceof RamemError, String(err));
      assert.match(`${err.where} ${err.message}`, field);
      assert.match(err.message, what);
      return true;
    };
    await assert.rejects(memory.ingest([session("n1", "2023-05-01T00:00:00.000Z", [["Ines", "ok"], ["Oskar", "bad \u0000 byte"]])]), refused(/turns › 1 › text/, /NUL character \(U\+0000\) at character 5/));
    await assert.rejects(memory.ingest([session("n2", "2023-05-01T00:00:00.000Z", [["In\udc00es", "ok"]])]), refused(/participants|speaker/, /lone surrogate \(U\+DC00\) at character 3/));
    await assert.rejects(memory.ingest([session("n\u0000id", "2023-05-01T00:00:00.000Z", [["Ines", "ok"]])]), refused(/session › id/, /NUL character/));
    await assert.rejects(memory.appendTurns({ sessionId: "s1", turns: [{ speaker: "Ines", text: "fine" }, { speaker: "Oskar", text: "x\ud800" }] }), refused(/turns\[1\] › text/, /lone surrogate \(U\+D800\) at character 2/));
    await assert.rejects(memory.appendTurns({ sessionId: "s1", turns: [{ speaker: "Ines", text: "fine", attachments: [{ kind: "image", caption: "a\u0000b" }] }] }), refused(/attachment 1 › caption/, /NUL character/));
    // An export is refused the same way: its units go through the same schema.
    const exported = (await memory.exportNamespace("library")).join("\n");
    await assert.rejects(memory.importNamespace(exported.replace("purple carrots", "purple \\u0000 carrots"), { namespace: "copy" }), refused(/unit\.content|content/, /NUL character/));
    assert.equal(JSON.stringify(await memory.list()), before);
    assert.deepEqual(await memory.store.listNamespaces(), ["library"]);
  } finally {
    await memory.close();
  }
});

test("recall refuses an empty query, a bad k and another embedder's store", async () => {
  const store = await openSqliteStore(":memory:");
  const memory = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: "library" });
  try {
    await memory.ingest(SESSIONS);
    await assert.rejects(memory.recall("  "), (e: unknown) => e instanceof RamemError && e.code === "BAD_QUERY");
    await assert.rejects(memory.recall("carrots", { k: 0 }), (e: unknown) => e instanceof RamemError && e.code === "BAD_K");
    const other = new Memory({ store, embedder: createHashEmbedder(64), defaultNamespace: "library" });
    await assert.rejects(other.recall("carrots"), (e: unknown) => e instanceof RamemError && /hash-bow@1:256/.test(e.message) && /hash-bow@1:64/.test(e.message));
    await assert.rejects(other.ingest([session("s7", "2023-06-01T00:00:00.000Z", [["Ines", "x"]])]), RamemError);
    assert.equal((await memory.stats()).units, 6);
  } finally {
    await memory.close();
  }
});

test("every write goes through one per-namespace lock: concurrent appends, an ingest and a forget on one namespace lose and resurrect nothing", async () => {
  const hash = createHashEmbedder();
  // Yields between reading a session and writing it back, as a WASM or remote embedder does.
  const embedder = { ...hash, embed: async (texts: readonly string[]) => (await new Promise((r) => setTimeout(r, 2)), hash.embed(texts)) };
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder, defaultNamespace: "library" });
  try {
    await memory.ingest([SESSIONS[0]!]);
    const [doomed] = await memory.list({ sessionId: "s1" });
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => memory.appendTurns({ sessionId: "s1", turns: [{ speaker: "Ines", text: `append number ${i}` }] })),
      memory.ingest([SESSIONS[1]!]),
      memory.forgetUnit(doomed!.id),
    ]);
    const units = await memory.list({ sessionId: "s1" });
    assert.ok(!units.some((u) => u.id === doomed!.id), "the forgotten unit came back");
    assert.equal(units.length, 3 - 1 + 6);
    for (let i = 0; i < 6; i++) assert.ok(units.some((u) => u.content.endsWith(`append number ${i}`)), `append ${i}`);
    assert.equal(new Set(units.flatMap((u) => u.provenance.turnIds)).size, units.length);
    assert.equal((await memory.list({ sessionId: "s2" })).length, 2);
    assert.equal(await memory.forgetSession("s2"), 2);
    assert.equal(await memory.forgetNamespace("library"), units.length);
  } finally {
    await memory.close();
  }
});

test("a question's answer is recalled through the question, and a 'when' query prefers the unit that says when", async () => {
  // No cues: the answer turn shares no word with the query, so only the question turn before it can bring it in.
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), anchorer: createRuleAnchorer({ cueWords: 0 }), defaultNamespace: "library" });
  try {
    await memory.ingest([
      session("q1", "2023-04-02T10:00:00.000Z", [
        ["Oskar", "Do you play any instruments these days?"],
        ["Ines", "Yes, the clarinet, every Sunday."],
        ["Oskar", "Lovely weather for the garden."],
      ]),
      session("q2", "2023-04-09T10:00:00.000Z", [
        ["Ines", "We talked about the garden again."],
        ["Oskar", "The garden party was last Saturday, on 8 April 2023."],
      ]),
    ]);
    const query = "Which instruments are played these days?";
    const turns = (hits: RecallHit[]) => hits.map((h) => h.unit.provenance.turnIds[0]);
    // Content alone: the question first, the answer (found only densely, weakly) behind another episode's unit.
    assert.deepEqual(turns(hitsOf(await memory.recall(query, { k: 2, switches: CONTENT_ONLY }))), ["q1:1", "q2:1"]);
    // RaMem: the answer follows its question into the top 2, ahead of its own episode's small talk.
    const ramem = hitsOf(await memory.recall(query, { k: 3 }));
    assert.deepEqual(turns(ramem), ["q1:1", "q1:2", "q1:3"]);
    assert.match(ramem[1]!.reasons.join(" "), /answers q1:1 \(content #1\)/);

    const when = hitsOf(await memory.recall("When was the garden party?", { k: 3 }));
    assert.deepEqual(when[0]!.unit.provenance.turnIds, ["q2:2"]);
    assert.match(when[0]!.reasons.join(" "), /carries a time/);
  } finally {
    await memory.close();
  }
});
