import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, GARDEN, CHESS, type TestServer } from "../testing/server-fixture.js";
import { MemoryUnit } from "../../model/memory-unit.js";
import { RecallFrame } from "../../model/recall-frame.js";

/** Every endpoint, on a real server over a loopback port, driven with fetch. */
describe("REST API: every endpoint", () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer({ keys: [{ role: "admin", namespaces: ["garden", "chess", "copy"] }] });
    key = t.secrets[0]!;
    assert.equal((await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { key, json: GARDEN })).status, 200);
    assert.equal((await t.call("PUT", "/v1/namespaces/chess/sessions/final", { key, json: CHESS })).status, 200);
  });
  after(() => t.stop());

  it("GET /health answers without a key", async () => {
    const r = await t.call("GET", "/health");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: "ok" });
  });

  it("GET /openapi.json documents every route with the library's schemas", async () => {
    const r = await t.call("GET", "/openapi.json");
    assert.equal(r.status, 200);
    assert.match(r.body.openapi, /^3\./);
    for (const path of [
      "/health",
      "/v1/namespaces",
      "/v1/namespaces/{ns}",
      "/v1/namespaces/{ns}/stats",
      "/v1/namespaces/{ns}/sessions",
      "/v1/namespaces/{ns}/sessions/{sessionId}",
      "/v1/namespaces/{ns}/sessions/{sessionId}/turns",
      "/v1/namespaces/{ns}/memories",
      "/v1/namespaces/{ns}/memories/{unitId}",
      "/v1/namespaces/{ns}/memories/{unitId}/history",
      "/v1/namespaces/{ns}/memories/{unitId}/validity",
      "/v1/namespaces/{ns}/memories/{unitId}/supersession",
      "/v1/namespaces/{ns}/messages",
      "/v1/namespaces/{ns}/recall",
      "/v1/namespaces/{ns}/ask",
      "/v1/namespaces/{ns}/export",
      "/v1/namespaces/{ns}/import",
    ]) {
      assert.ok(r.body.paths[path], `missing ${path}`);
    }
    const schemas = r.body.components.schemas;
    for (const name of ["MemoryUnit", "RecallFrame", "RecallHit", "Problem", "SessionInput", "TurnInput"]) assert.ok(schemas[name], `missing schema ${name}`);
    assert.deepEqual(Object.keys(schemas.MemoryUnit.properties).sort(), Object.keys(MemoryUnit.shape).sort());
    assert.equal(r.body.components.securitySchemes.apiKey.scheme, "bearer");
  });

  it("PUT a session ingests it; the same session again is unchanged, a changed one replaces it", async () => {
    const again = await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { key, json: GARDEN });
    assert.equal(again.status, 200);
    assert.equal(again.body.unchanged, true);
    assert.equal(again.body.created, false);
    assert.deepEqual(again.body.turnIds, ["s1:1", "s1:2", "s1:3"]);
    const s2 = { startTime: "2023-07-01T10:00:00Z", turns: [{ id: "t1", speaker: "Caroline", text: "We hiked up the volcano in July." }, { speaker: "Melanie", text: "Photos please!" }] };
    const first = await t.call("PUT", "/v1/namespaces/garden/sessions/s2", { key, json: s2 });
    assert.equal(first.body.created, true);
    assert.equal(first.body.unitsWritten, 2);
    assert.deepEqual(first.body.turnIds, ["t1", "s2:2"]);
    const changed = await t.call("PUT", "/v1/namespaces/garden/sessions/s2", { key, json: { ...s2, turns: s2.turns.slice(0, 1) } });
    assert.equal(changed.body.unitsWritten, 1);
    const units = await t.call("GET", "/v1/namespaces/garden/memories?session=s2", { key });
    assert.equal(units.body.memories.length, 1);
    assert.equal((await t.call("DELETE", "/v1/namespaces/garden/sessions/s2", { key })).body.deleted, 1);
  });

  it("POST .../turns appends to a session (ids continue) and creates a missing one", async () => {
    const r = await t.call("POST", "/v1/namespaces/garden/sessions/s1/turns", {
      key,
      json: { turns: [{ speaker: "Melanie", text: "We adopted a kitten named Oscar.", time: "2023-05-08T14:30:00Z" }] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.turnIds, ["s1:4"]);
    assert.equal(r.body.created, false);
    const session = await t.call("GET", "/v1/namespaces/garden/sessions/s1", { key });
    assert.equal(session.body.unitCount, 4);
    assert.equal(session.body.endTime, "2023-05-08T14:30:00.000Z");
    const units = (await t.call("GET", "/v1/namespaces/garden/memories?session=s1", { key })).body.memories;
    assert.deepEqual(units.map((u: any) => u.provenance.turnIds[0]), ["s1:1", "s1:2", "s1:3", "s1:4"]);
    assert.ok(units.every((u: any) => u.context.session.end === "2023-05-08T14:30:00.000Z"));
    const created = await t.call("POST", "/v1/namespaces/garden/sessions/live/turns", {
      key,
      json: { startTime: "2023-08-01T08:00:00Z", turns: [{ speaker: "Caroline", text: "Good morning from the live chat." }] },
    });
    assert.equal(created.body.created, true);
    assert.deepEqual(created.body.turnIds, ["live:1"]);
    const dup = await t.call("POST", "/v1/namespaces/garden/sessions/live/turns", { key, json: { turns: [{ id: "live:1", speaker: "A", text: "again" }] } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, "DUPLICATE_TURN");
    await t.call("DELETE", "/v1/namespaces/garden/sessions/live", { key });
  });

  it("POST recall returns the frame and, per unit, why it is there", async () => {
    const r = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "What did Caroline get from her grandmother?", k: 2 } });
    assert.equal(r.status, 200);
    assert.equal(r.body.hits.length, 2);
    assert.match(r.body.hits[0].unit.content, /silver necklace/);
    assert.ok(r.body.hits[0].reasons.some((x: string) => /content: /.test(x)));
    assert.ok(RecallFrame.safeParse(r.body.frame).success);
    assert.ok(r.body.hits.every((h: any) => h.unit.namespace === "garden"));
    const contentOnly = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "necklace", contentOnly: true, questionDate: "2023-06-01T00:00:00Z" } });
    assert.equal(contentOnly.body.frame, null);
  });

  it("POST ask without an LLM returns the evidence pack and says so", async () => {
    const r = await t.call("POST", "/v1/namespaces/garden/ask", { key, json: { question: "What did Caroline get from her grandmother?" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.answer, null);
    assert.equal(r.body.llmConfigured, false);
    assert.match(r.body.note, /no LLM is configured/);
    assert.match(r.body.evidence.text, /^<memories>/);
    assert.match(r.body.evidence.text, /silver necklace/);
    assert.ok(r.body.evidence.unitIds.length > 0);
  });

  it("recall and ask say when the store likely holds nothing: holdsEvidence, and ask abstains without a model", async () => {
    const held = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "What did Caroline get from her grandmother?" } });
    assert.equal(held.body.holdsEvidence.likely, true, held.body.holdsEvidence.why);
    const never = { question: "How often does Caroline play table tennis?" };
    const recalled = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: never.question } });
    assert.equal(recalled.body.holdsEvidence.likely, false);
    assert.match(recalled.body.holdsEvidence.why, /no stored memory mentions .*"tennis"/);
    const asked = await t.call("POST", "/v1/namespaces/garden/ask", { key, json: never });
    assert.equal(asked.status, 200);
    assert.equal(asked.body.answer, "I don't have that in memory.");
    assert.equal(asked.body.abstained, true);
    assert.equal(asked.body.note, undefined, "no model was needed to answer");
    assert.deepEqual(asked.body.holdsEvidence, recalled.body.holdsEvidence);
    assert.match(asked.body.evidence.text, /^<memories>\nevidence check: the store likely holds nothing/);
    const anyway = await t.call("POST", "/v1/namespaces/garden/ask", { key, json: { ...never, abstain: false } });
    assert.equal(anyway.body.abstained, false);
    assert.equal(anyway.body.answer, null);
    const bad = await t.call("POST", "/v1/namespaces/garden/ask", { key, json: { ...never, abstain: "no" } });
    assert.equal(bad.status, 400);
  });

  it("GET memories filters by session, participant and time range, with limit and offset", async () => {
    const all = (await t.call("GET", "/v1/namespaces/garden/memories", { key })).body.memories;
    assert.ok(all.length >= 4);
    const page = (await t.call("GET", "/v1/namespaces/garden/memories?limit=2&offset=1", { key })).body;
    assert.deepEqual(page.memories.map((u: any) => u.id), all.slice(1, 3).map((u: any) => u.id));
    const bob = await t.call("GET", "/v1/namespaces/chess/memories?participant=bob", { key });
    assert.equal(bob.body.memories.length, 2);
    const none = await t.call("GET", "/v1/namespaces/chess/memories?participant=caroline", { key });
    assert.equal(none.body.memories.length, 0);
    const inRange = await t.call("GET", "/v1/namespaces/garden/memories?from=2023-05-01T00:00:00Z&to=2023-05-31T00:00:00Z", { key });
    assert.equal(inRange.body.memories.length, all.length);
    const outOfRange = await t.call("GET", "/v1/namespaces/garden/memories?from=2024-01-01T00:00:00Z", { key });
    assert.equal(outOfRange.body.memories.length, 0);
    for (const u of all) assert.ok(MemoryUnit.safeParse(u).success);
  });

  it("GET memories pages with cursor and nextCursor, as the library's getAll does; offset still works; not both", async () => {
    const all = (await t.call("GET", "/v1/namespaces/garden/memories", { key })).body;
    assert.equal(all.nextCursor, null, "one page holds them all");
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await t.call("GET", `/v1/namespaces/garden/memories?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.total, all.total);
      assert.equal(r.body.offset, seen.length);
      seen.push(...r.body.memories.map((u: any) => u.id));
      cursor = r.body.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(seen, all.memories.map((u: any) => u.id));
    // The library's cursors and REST's are the same: one from getAll pages REST.
    const lib = await t.memory.getAll({ namespace: "garden", limit: 2 });
    const next = await t.call("GET", `/v1/namespaces/garden/memories?limit=2&cursor=${lib.nextCursor}`, { key });
    assert.deepEqual(next.body.memories.map((u: any) => u.id), seen.slice(2, 4));
    const both = await t.call("GET", `/v1/namespaces/garden/memories?offset=0&cursor=${lib.nextCursor}`, { key });
    assert.equal(both.status, 400);
    assert.match(both.body.detail, /cursor or offset, not both/);
    const bad = await t.call("GET", "/v1/namespaces/garden/memories?cursor=garbage", { key });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, "BAD_CURSOR");
    assert.match(bad.body.detail, /^query\.cursor: /);
  });

  it("GET one memory, GET sessions, GET stats, GET namespaces", async () => {
    const [first] = (await t.call("GET", "/v1/namespaces/garden/memories?limit=1", { key })).body.memories;
    const one = await t.call("GET", `/v1/namespaces/garden/memories/${first.id}`, { key });
    assert.deepEqual(one.body, first);
    const missing = await t.call("GET", "/v1/namespaces/garden/memories/u_nope", { key });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, "UNIT_NOT_FOUND");
    const sessions = await t.call("GET", "/v1/namespaces/garden/sessions", { key });
    assert.deepEqual(sessions.body.sessions.map((s: any) => s.id), ["s1"]);
    assert.equal(sessions.body.sessions[0].contentHash, undefined);
    const stats = await t.call("GET", "/v1/namespaces/chess/stats", { key });
    assert.deepEqual({ ...stats.body, embedder: undefined }, {
      namespace: "chess",
      sessions: 1,
      units: 2,
      embedder: undefined,
      dimensions: 256,
      range: { start: "2023-06-10T09:00:00.000Z", end: "2023-06-10T09:00:00.000Z" },
    });
    const namespaces = await t.call("GET", "/v1/namespaces", { key });
    assert.deepEqual(namespaces.body.namespaces, ["chess", "garden"]);
  });

  it("export → import into another namespace gives the same units, vectors and recall", async () => {
    const exported = await t.call("GET", "/v1/namespaces/garden/export", { key });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get("content-type") ?? "", /ndjson/);
    const imported = await t.call("POST", "/v1/namespaces/copy/import", { key, body: exported.text, headers: { "content-type": "application/x-ndjson" } });
    assert.equal(imported.status, 200, imported.text);
    const original = (await t.call("GET", "/v1/namespaces/garden/memories", { key })).body.memories;
    const copy = (await t.call("GET", "/v1/namespaces/copy/memories", { key })).body.memories;
    assert.deepEqual(copy, original.map((u: any) => ({ ...u, namespace: "copy" })));
    const q = { query: "kitten named Oscar", k: 3 };
    const a = (await t.call("POST", "/v1/namespaces/garden/recall", { key, json: q })).body.hits;
    const b = (await t.call("POST", "/v1/namespaces/copy/recall", { key, json: q })).body.hits;
    assert.deepEqual(b.map((h: any) => [h.unit.id, h.score, h.channels]), a.map((h: any) => [h.unit.id, h.score, h.channels]));
    const reExported = (await t.call("GET", "/v1/namespaces/copy/export", { key })).text;
    const strip = (text: string) => text.split("\n").slice(1).join("\n").replaceAll('"namespace":"copy"', '"namespace":"garden"');
    assert.equal(strip(reExported), strip(exported.text));
    const again = await t.call("POST", "/v1/namespaces/copy/import", { key, body: exported.text, headers: { "content-type": "application/x-ndjson" } });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, "NAMESPACE_NOT_EMPTY");
  });

  it("DELETE a unit, a session, a namespace: recall, list, get and export never return them again", async () => {
    const needle = "The lighthouse keeper whistled a sea shanty at midnight.";
    const put = await t.call("PUT", "/v1/namespaces/chess/sessions/sea", { key, json: { startTime: "2023-06-11T09:00:00Z", turns: [{ speaker: "Bob", text: needle }, { speaker: "Alice", text: "Marmalade sandwiches for the ferry." }] } });
    assert.equal(put.status, 200, put.text);
    const findUnit = async (ns: string, text: RegExp) => (await t.call("GET", `/v1/namespaces/${ns}/memories`, { key })).body.memories?.find((u: any) => text.test(u.content));
    const unit = await findUnit("chess", /lighthouse/);
    assert.ok(unit);
    const del = await t.call("DELETE", `/v1/namespaces/chess/memories/${unit.id}`, { key });
    assert.deepEqual([del.status, del.body], [200, { deleted: 1 }]);
    const recall = await t.call("POST", "/v1/namespaces/chess/recall", { key, json: { query: needle, k: 10 } });
    assert.ok(!recall.body.hits.some((h: any) => h.unit.id === unit.id), "deleted unit recalled");
    assert.equal(await findUnit("chess", /lighthouse/), undefined);
    assert.equal((await t.call("GET", `/v1/namespaces/chess/memories/${unit.id}`, { key })).status, 404);
    assert.ok(!(await t.call("GET", "/v1/namespaces/chess/export", { key })).text.includes("lighthouse"));
    assert.equal((await t.call("DELETE", `/v1/namespaces/chess/memories/${unit.id}`, { key })).status, 404);

    const delSession = await t.call("DELETE", "/v1/namespaces/chess/sessions/sea", { key });
    assert.deepEqual(delSession.body, { deleted: 1 });
    const recall2 = await t.call("POST", "/v1/namespaces/chess/recall", { key, json: { query: "Marmalade sandwiches for the ferry", k: 10 } });
    assert.ok(!recall2.body.hits.some((h: any) => /Marmalade/.test(h.unit.content)));
    assert.ok(!(await t.call("GET", "/v1/namespaces/chess/export", { key })).text.includes("Marmalade"));
    assert.equal((await t.call("GET", "/v1/namespaces/chess/sessions/sea", { key })).status, 404);
    assert.equal((await t.call("DELETE", "/v1/namespaces/chess/sessions/sea", { key })).status, 404);

    const delNs = await t.call("DELETE", "/v1/namespaces/copy", { key });
    assert.equal(delNs.status, 200);
    assert.ok(delNs.body.deleted >= 4);
    // Recall answers as the library does on an empty namespace: no hits, not a 404.
    const emptyRecall = await t.call("POST", "/v1/namespaces/copy/recall", { key, json: { query: "silver necklace" } });
    assert.equal(emptyRecall.status, 200, emptyRecall.text);
    assert.deepEqual(emptyRecall.body.hits, []);
    for (const [method, path] of [
      ["GET", "/v1/namespaces/copy/memories"],
      ["GET", "/v1/namespaces/copy/export"],
      ["GET", "/v1/namespaces/copy/stats"],
      ["DELETE", "/v1/namespaces/copy"],
    ] as const) {
      const r = await t.call(method, path, { key });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.code, "NAMESPACE_NOT_FOUND");
    }
    assert.deepEqual((await t.call("GET", "/v1/namespaces", { key })).body.namespaces, ["chess", "garden"]);
  });

  it("POST messages, GET with a filter and a total, PATCH a unit, GET its history (who: the key's name), recall with filter and minScore", async () => {
    const added = await t.call("POST", "/v1/namespaces/garden/messages", {
      key,
      json: { messages: [{ role: "user", content: "I repotted the fig tree." }, { role: "assistant", content: [{ type: "text", text: "Figs like sun." }] }], metadata: { topic: "plants" } },
    });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.unitIds.length, 2);
    const filter = encodeURIComponent(JSON.stringify({ "metadata.topic": "plants" }));
    const listed = await t.call("GET", `/v1/namespaces/garden/memories?filter=${filter}&limit=1`, { key });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.total, 2);
    assert.equal(listed.body.memories.length, 1);
    const id = added.body.unitIds[0];
    const patched = await t.call("PATCH", `/v1/namespaces/garden/memories/${id}`, { key, json: { text: "I repotted the lemon tree." } });
    assert.equal(patched.status, 200, patched.text);
    assert.match(patched.body.content, /lemon tree/);
    const history = await t.call("GET", `/v1/namespaces/garden/memories/${id}/history`, { key });
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(history.body.events.map((e: { event: string; actor: string }) => [e.event, e.actor]), [["created", "test"], ["updated", "test"]]);
    assert.match(history.body.events[1].previousText, /fig tree/);
    const recalled = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "lemon tree", filter: { "metadata.topic": "plants" }, minScore: 0.01 } });
    assert.equal(recalled.status, 200, recalled.text);
    assert.equal(recalled.body.hits[0].unit.id, id);
    assert.ok(recalled.body.hits.every((h: { score: number; unit: { metadata?: { topic?: string } } }) => h.score >= 0.01 && h.unit.metadata?.topic === "plants"));
    const none = await t.call("GET", `/v1/namespaces/garden/memories/u_nope/history`, { key });
    assert.equal(none.status, 404);
  });

  it("PUT a unit's supersession, GET its validity; a cycle is 409 and changes nothing", async () => {
    const added = await t.call("POST", "/v1/namespaces/garden/messages", {
      key,
      json: { messages: [{ role: "user", content: "I live in Lisbon." }, { role: "user", content: "I live in Porto now." }] },
    });
    assert.equal(added.status, 200, added.text);
    const [lisbon, porto] = added.body.unitIds as [string, string];
    // The rules' supersession comes with its link, as on every other face.
    const derived = await t.call("GET", `/v1/namespaces/garden/memories/${lisbon}/validity`, { key });
    assert.deepEqual([derived.body.validity.supersededBy, derived.body.validity.origin, typeof derived.body.validity.link?.confidence], [porto, "rule", "number"]);
    const put = await t.call("PUT", `/v1/namespaces/garden/memories/${lisbon}/supersession`, { key, json: { supersededBy: porto } });
    assert.equal(put.status, 200, put.text);
    const validity = await t.call("GET", `/v1/namespaces/garden/memories/${lisbon}/validity`, { key });
    assert.equal(validity.status, 200, validity.text);
    assert.deepEqual([validity.body.validity.supersededBy, validity.body.validity.origin], [porto, "user"]);
    // validAt: the state valid at an instant; the statement superseded by then goes last and says by what.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const atTomorrow = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "Where do I live?", k: 20, validAt: tomorrow } });
    assert.equal(atTomorrow.status, 200, atTomorrow.text);
    const order = atTomorrow.body.hits.map((h: { unit: { id: string } }) => h.unit.id);
    assert.ok(order.indexOf(porto) >= 0 && order.indexOf(porto) < order.indexOf(lisbon), order.join(" "));
    assert.match(atTomorrow.body.hits[order.indexOf(lisbon)].reasons.join(" "), new RegExp(`superseded .*by ${porto}`));
    const badInstant = await t.call("POST", "/v1/namespaces/garden/recall", { key, json: { query: "Where do I live?", validAt: "last spring" } });
    assert.equal(badInstant.status, 400, badInstant.text);
    assert.match(badInstant.text, /validAt/);
    const cycle = await t.call("PUT", `/v1/namespaces/garden/memories/${porto}/supersession`, { key, json: { supersededBy: lisbon } });
    assert.equal(cycle.status, 409, cycle.text);
    assert.equal(cycle.body.code, "CYCLIC_SUPERSESSION");
    const undo = await t.call("PUT", `/v1/namespaces/garden/memories/${lisbon}/supersession`, { key, json: { supersededBy: null } });
    assert.equal(undo.status, 200, undo.text);
    assert.equal((await t.call("GET", `/v1/namespaces/garden/memories/${lisbon}/validity`, { key })).body.validity.supersededBy, null);
    assert.equal((await t.call("GET", `/v1/namespaces/garden/memories/u_nope/validity`, { key })).status, 404);
  });
});
