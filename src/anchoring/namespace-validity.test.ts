import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { SessionWithTurns } from "../model/conversation.js";
import type { UnitFilter } from "../store/contract.js";
import { deriveValidity } from "./derive-validity.js";
import { namespaceValidity } from "./namespace-validity.js";

const NS = "validity";

function session(id: string, day: string, texts: string[]): SessionWithTurns {
  const at = `${day}T10:00:00Z`;
  return {
    session: { id, namespace: NS, startTime: at, endTime: at, participants: ["Ines", "Bo"] },
    turns: texts.map((text, i) => ({ id: `${id}:${i + 1}`, speaker: i % 2 ? "Bo" : "Ines", text })),
  };
}

const entries = (m: Map<string, unknown>) => JSON.stringify([...m].sort(([a], [b]) => (a < b ? -1 : 1)));

test("namespaceValidity after appends, corrections and forgetting equals a derivation from scratch, and re-reads only the sessions that changed", async () => {
  const store = await openSqliteStore(":memory:");
  const memory = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: NS });
  const reads = { all: 0, sessions: [] as string[] };
  const listStateUnits = store.listStateUnits!.bind(store);
  const listUnits = store.listUnits.bind(store);
  store.listStateUnits = async (ns) => {
    reads.all++;
    return listStateUnits(ns);
  };
  store.listUnits = async (ns: string, filter?: UnitFilter) => {
    if (filter?.sessionId) reads.sessions.push(filter.sessionId);
    return listUnits(ns, filter);
  };
  const check = async (what: string) => {
    const got = await namespaceValidity(store, NS, await store.listSessions(NS));
    // From scratch: every state unit, read (uncounted) and derived in one go.
    assert.equal(entries(got.validity), entries(deriveValidity(await listStateUnits(NS))), what);
    return got;
  };
  try {
    await memory.ingest([
      session("a", "2023-01-10", ["I live in Porto now.", "Nice.", "I have a dog named Rex."]),
      session("b", "2023-03-02", ["We talked about books.", "I moved to Lisbon last week.", "Good luck."]),
      session("c", "2023-05-20", ["The weather was grey all day.", "Yes."]),
    ]);
    const first = await check("the first derivation");
    assert.ok(first.validity.size >= 2, `states were found: ${first.validity.size}`);
    assert.equal(reads.all, 1);

    // Unchanged: the cached value itself.
    assert.equal(await namespaceValidity(store, NS, await store.listSessions(NS)), first);

    // An append to one session re-reads that session alone.
    await memory.add([{ role: "user", content: "I moved to Madrid in May." }], { sessionId: "c", now: new Date("2023-05-20T11:00:00Z") });
    // Counted from here: the append read its session's last units itself.
    reads.all = 0;
    reads.sessions.length = 0;
    const afterAppend = await check("after an append");
    assert.deepEqual([reads.all, reads.sessions], [0, ["c"]]);
    assert.notEqual(entries(afterAppend.validity), entries(first.validity), "the append's new residence changed a validity");

    // A user's correction naming a successor that states nothing (the weather turn of session c).
    const units = await store.listUnits(NS);
    const porto = units.find((u) => u.content.includes("Porto"))!;
    const weather = units.find((u) => u.content.includes("weather"))!;
    await memory.supersede(porto.id, weather.id);
    const corrected = await check("after a correction");
    assert.equal(corrected.validity.get(porto.id)?.supersededBy, weather.id);
    assert.equal(corrected.validity.get(porto.id)?.origin, "user");

    // The successor's session goes: the correction no longer names a unit, as from scratch.
    await memory.forgetSession("c");
    reads.sessions.length = 0;
    const forgotten = await check("after forgetting the successor's session");
    assert.equal(forgotten.validity.get(porto.id)?.supersededBy, null);
    assert.deepEqual(reads.sessions, [], "a removed session is dropped, not read");

    // Another handle's write (its own cache) is seen through the content hashes.
    const other = new Memory({ store, embedder: createHashEmbedder(), defaultNamespace: NS });
    await other.ingest([session("d", "2023-08-01", ["I sold my car.", "Oh.", "I live in Braga now."])]);
    await check("after another handle's ingest");
  } finally {
    await memory.close();
  }
});
