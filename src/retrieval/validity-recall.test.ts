/**
 * States and supersession end to end, through Memory.recall on the embedded
 * store: the example that opened the issue ("I live in Lisbon", later "I
 * moved to Porto last week"; "where does the user live?").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "../memory.js";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { renderEvidence } from "../synthesis/render-evidence.js";

const chat = (id: string, day: string, lines: string[]): SessionWithTurns => ({
  session: { id, namespace: "moves", startTime: `${day}T10:00:00.000Z`, endTime: `${day}T10:00:00.000Z`, participants: [] },
  turns: lines.flatMap((text, i) => [
    { id: `${id}:${2 * i + 1}`, speaker: "user", role: "user" as const, text },
    { id: `${id}:${2 * i + 2}`, speaker: "assistant", role: "assistant" as const, text: "That sounds lovely, tell me more." },
  ]),
});

async function movesMemory(): Promise<Memory> {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
  await memory.ingest([
    chat("s1", "2022-03-01", ["I live in Lisbon, in a small flat where I live with two cats.", "Any tips for cafes?"]),
    chat("s2", "2022-09-10", ["I still live in Lisbon and I love where I live.", "What should I cook for dinner?"]),
    chat("s3", "2023-02-10", ["Big news: I moved to Porto last week!", "Can you suggest moving-in gifts?"]),
  ]);
  return memory;
}

test("a current-state question puts the valid state first and marks the superseded ones", async () => {
  const memory = await movesMemory();
  const { hits, frame } = await memory.recall("Where does the user live?", { namespace: "moves", k: 12 });
  assert.equal(frame?.currentState?.evidence, "present tense");
  assert.equal(hits[0]!.unit.provenance.turnIds[0], "s3:1", hits.map((h) => `${h.unit.provenance.turnIds[0]} ${h.reasons.join("; ")}`).join("\n"));
  assert.match(hits[0]!.reasons.join(" "), /supersedes/);
  const lisbon = hits.filter((h) => /Lisbon/.test(h.unit.content));
  assert.ok(lisbon.length >= 2);
  // The move is dated by the turn: "last week", said on 10 February 2023.
  for (const h of lisbon) assert.match(h.reasons.join(" "), /superseded on 2023-01-30 by u_/);
  await memory.close();
});

test("a question about the past selects the state valid then", async () => {
  const memory = await movesMemory();
  const { hits } = await memory.recall("Where did I live in 2022?", { namespace: "moves", k: 5 });
  assert.match(hits[0]!.unit.content, /Lisbon/, hits.map((h) => `${h.unit.content} | ${h.reasons.join("; ")}`).join("\n"));
  await memory.close();
});

test("a user's corrections: supersede and unsupersede change recall, persist on the unit, and refuse bad input without changing anything", async () => {
  const memory = await movesMemory();
  const units = await memory.store.listUnits("moves");
  const lisbon = units.find((u) => u.provenance.turnIds[0] === "s1:1")!;
  const porto = units.find((u) => u.provenance.turnIds[0] === "s3:1")!;
  const gifts = units.find((u) => u.provenance.turnIds[0] === "s3:3")!;
  assert.equal((await memory.validity(lisbon.id, { namespace: "moves" }))?.supersededBy, porto.id);

  // Not superseded after all: Lisbon is valid again, whatever the rules say.
  await memory.unsupersede(lisbon.id, { namespace: "moves" });
  assert.deepEqual([(await memory.validity(lisbon.id, { namespace: "moves" }))?.supersededBy, (await memory.validity(lisbon.id, { namespace: "moves" }))?.origin], [null, "user"]);
  const { hits } = await memory.recall("Where does the user live?", { namespace: "moves", k: 12 });
  assert.ok(!hits.find((h) => h.unit.id === lisbon.id)!.reasons.join(" ").includes("superseded"));

  // A statement the rules know nothing of can be superseded by hand.
  await memory.supersede(gifts.id, porto.id, { namespace: "moves" });
  assert.equal((await memory.validity(gifts.id, { namespace: "moves" }))?.supersededBy, porto.id);
  assert.equal((await memory.get(gifts.id, { namespace: "moves" }))?.supersession?.supersededBy, porto.id);

  const before = JSON.stringify(await memory.store.listUnits("moves"));
  const code = (e: unknown) => (e as { code?: string }).code;
  await assert.rejects(memory.supersede(porto.id, gifts.id, { namespace: "moves" }), (e) => code(e) === "CYCLIC_SUPERSESSION");
  await assert.rejects(memory.supersede(porto.id, porto.id, { namespace: "moves" }), (e) => code(e) === "CYCLIC_SUPERSESSION");
  await assert.rejects(memory.supersede(porto.id, "u_missing", { namespace: "moves" }), (e) => code(e) === "UNIT_NOT_FOUND" && (e as { where?: string }).where === "by");
  await assert.rejects(memory.supersede(porto.id, lisbon.id, { namespace: "elsewhere" }), (e) => code(e) === "UNIT_NOT_FOUND");
  assert.equal(JSON.stringify(await memory.store.listUnits("moves")), before, "nothing changed");
  await memory.close();
});

test("the evidence pack says which statement no longer holds and what replaced it", async () => {
  const memory = await movesMemory();
  const { hits } = await memory.recall("Where does the user live?", { namespace: "moves", k: 12 });
  const lisbon = hits.find((h) => h.unit.provenance.turnIds[0] === "s1:1")!;
  assert.equal(lisbon.unit.validity?.supersededBy, hits[0]!.unit.id);
  const pack = renderEvidence(hits.map((h) => h.unit)).text;
  assert.match(pack, /\(s1:1; at: Lisbon; earlier value, stated 1 March 2022; superseded 30 January 2023 by \[1\]\) user: I live in Lisbon/);
  await memory.close();
});

test("validAt: the state valid at an instant first, the others behind it with why, bad instants refused", async () => {
  const memory = await movesMemory();
  const before = await memory.recall("Where does the user live?", { namespace: "moves", k: 12, validAt: "2022-06-01" });
  const top = (o: typeof before) => o.hits.map((h) => `${h.unit.provenance.turnIds[0]} ${h.reasons.join("; ")}`).join("\n");
  assert.match(before.hits[0]!.unit.content, /Lisbon/, top(before));
  const porto = before.hits.find((h) => /Porto/.test(h.unit.content))!;
  assert.match(porto.reasons.join(" "), /not yet valid on 2022-06-01/);
  assert.ok(before.hits.indexOf(porto) > before.hits.findIndex((h) => /Lisbon/.test(h.unit.content)));
  // After the move the same call puts Porto first, and the Lisbon statements say they were superseded.
  const after = await memory.recall("Where does the user live?", { namespace: "moves", k: 12, validAt: "2023-06-01T00:00:00Z" });
  assert.match(after.hits[0]!.unit.content, /Porto/, top(after));
  for (const h of after.hits.filter((x) => /Lisbon/.test(x.unit.content))) assert.match(h.reasons.join(" "), /superseded on 2023-01-30/);
  await assert.rejects(memory.recall("Where does the user live?", { namespace: "moves", validAt: "last spring" }), (e: Error & { code?: string }) => e.code === "BAD_VALID_AT");
  await memory.close();
});

test("a hit's validity, and memory.validity's, are the caller's copy: changing them changes nothing the next recall reads", async () => {
  const memory = await movesMemory();
  const first = await memory.recall("Where does the user live?", { namespace: "moves", k: 5 });
  const porto = first.hits[0]!;
  assert.equal(porto.unit.validity?.supersededBy, null);
  // A caller scribbles on what it was handed (the store's snapshot keeps its own, laid out per slot).
  Object.assign(porto.unit.validity!, { supersededBy: "u_elsewhere", validTo: "2022-01-01T00:00:00.000Z" });
  Object.assign((await memory.validity(porto.unit.id, { namespace: "moves" }))!, { supersededBy: "u_elsewhere", validTo: "2022-01-01T00:00:00.000Z" });
  const again = await memory.recall("Where does the user live?", { namespace: "moves", k: 5 });
  assert.equal(again.hits[0]!.unit.id, porto.unit.id);
  assert.equal(again.hits[0]!.unit.validity?.supersededBy, null);
  assert.equal(again.hits[0]!.unit.validity?.validTo, null);
  await memory.close();
});
