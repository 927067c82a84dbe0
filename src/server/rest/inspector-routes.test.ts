import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, GARDEN, type TestServer } from "../testing/server-fixture.js";
import { MemoryUnit } from "../../model/memory-unit.js";
import { RecallHit } from "../../model/recall.js";

/** The routes the inspector needs beyond the rest of the API: GET /v1/me, POST …/recall/explain, GET …/memories?validity=true. */
describe("REST API: the inspector's routes", () => {
  let t: TestServer;
  let write: string;
  let read: string;
  before(async () => {
    t = await startTestServer({ keys: [{ role: "write", namespaces: ["garden"] }, { role: "read", namespaces: ["garden"] }] });
    [write, read] = t.secrets as [string, string];
    assert.equal((await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { key: write, json: GARDEN })).status, 200);
  });
  after(() => t.stop());

  it("GET /v1/me says the key's role, namespaces and name; 401 without a key; documented in OpenAPI", async () => {
    assert.deepEqual((await t.call("GET", "/v1/me", { key: read })).body, { role: "read", namespaces: ["garden"], keyName: "test", open: false });
    assert.equal((await t.call("GET", "/v1/me", { key: write })).body.role, "write");
    const none = await t.call("GET", "/v1/me");
    assert.equal(none.status, 401);
    assert.equal(none.body.code, "UNAUTHORIZED");
    const doc = (await t.call("GET", "/openapi.json")).body;
    assert.ok(doc.paths["/v1/me"]?.get);
    assert.ok(doc.paths["/v1/namespaces/{ns}/recall/explain"]?.post);
  });

  it("GET /v1/me on an open server: the local admin, open", async () => {
    const open = await startTestServer();
    try {
      assert.deepEqual((await open.call("GET", "/v1/me")).body, { role: "admin", namespaces: "all", keyName: null, open: true });
    } finally {
      await open.stop();
    }
  });

  it("POST …/recall/explain (a read key may): each condition and why, C_ctx among the hits, the content-only ranking and the evidence pack", async () => {
    const r = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json: { query: "When did Caroline go to the support group?", k: 3 } });
    assert.equal(r.status, 200, r.text);
    const participants = r.body.conditions.find((c: { name: string }) => c.name === "participants");
    assert.equal(participants.value, "Caroline");
    assert.equal(participants.active, true);
    assert.match(participants.why, /≥ 0\.70/);
    assert.equal(r.body.frame.active, true);
    assert.ok(r.body.cues.some((c: string) => /asks for a time/.test(c)));
    for (const h of r.body.hits) RecallHit.parse(h);
    const ids = r.body.hits.map((h: { unit: { id: string } }) => h.unit.id);
    assert.ok(r.body.contextValidIds.length >= 1 && r.body.contextValidIds.every((id: string) => ids.includes(id)), "C_ctx is a subset of the hits");
    // C_ctx comes first: every context-valid hit ranks above every other.
    const lastCtx = Math.max(...r.body.contextValidIds.map((id: string) => ids.indexOf(id)));
    assert.equal(lastCtx, r.body.contextValidIds.length - 1);
    assert.match(r.body.hits[0].unit.content, /support group/);
    assert.equal(r.body.contentOnly.length, 3);
    assert.ok(r.body.contentOnly.every((h: { reasons: string[] }) => !h.reasons.some((x) => x.startsWith("context:"))), "the content-only list met no frame");
    // The pack is what POST …/ask hands the generator.
    const ask = await t.call("POST", "/v1/namespaces/garden/ask", { key: read, json: { question: "When did Caroline go to the support group?", k: 3 } });
    assert.equal(r.body.evidence.text, ask.body.evidence.text);
    assert.deepEqual(r.body.evidence.unitIds, ask.body.evidence.unitIds);
    assert.equal(typeof r.body.tookMs, "number");
    assert.equal(r.body.validAt, null);
  });

  it("POST …/recall/explain with validAt: recalled as of that instant (the same hits as POST …/recall with it), and echoed", async () => {
    const json = { query: "What did Caroline get?", k: 3, validAt: "2023-05-08T12:00:00Z" };
    const r = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.validAt, "2023-05-08T12:00:00.000Z");
    const recall = await t.call("POST", "/v1/namespaces/garden/recall", { key: read, json });
    const ids = (hits: Array<{ unit: { id: string }; reasons: string[] }>) => hits.map((h) => [h.unit.id, h.reasons.join("|")]);
    assert.deepEqual(ids(r.body.hits), ids(recall.body.hits));
  });

  it("POST …/recall/explain: an inactive frame explains itself; bad input is a 400 naming the field; another namespace is a 403", async () => {
    const r = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json: { query: "painting", k: 2 } });
    assert.equal(r.status, 200);
    assert.equal(r.body.frame.active, false);
    assert.deepEqual(r.body.contextValidIds, []);
    assert.ok(r.body.cues.some((c: string) => /frame inactive/.test(c)));
    const empty = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json: { query: "  " } });
    assert.equal(empty.status, 400);
    assert.match(JSON.stringify(empty.body.errors), /body\.query/);
    const date = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json: { query: "x", questionDate: "yesterday" } });
    assert.equal(date.status, 400);
    const unknown = await t.call("POST", "/v1/namespaces/garden/recall/explain", { key: read, json: { query: "x", contentOnly: true } });
    assert.equal(unknown.status, 400, "an unknown field is refused, not ignored");
    assert.equal((await t.call("POST", "/v1/namespaces/other/recall/explain", { key: read, json: { query: "x" } })).status, 403);
  });

  it("GET …/memories?validity=true: a unit a user marked superseded carries its validity; without the flag none does", async () => {
    const units = (await t.call("GET", "/v1/namespaces/garden/memories", { key: read })).body.memories as MemoryUnit[];
    const [a, b] = units;
    assert.equal((await t.call("PUT", `/v1/namespaces/garden/memories/${a!.id}/supersession`, { key: write, json: { supersededBy: b!.id } })).status, 200);
    const listed = (await t.call("GET", "/v1/namespaces/garden/memories?validity=true", { key: read })).body.memories as MemoryUnit[];
    const old = listed.find((u) => u.id === a!.id)!;
    MemoryUnit.parse(old);
    assert.equal(old.validity?.supersededBy, b!.id);
    assert.equal(old.validity?.origin, "user");
    const plain = (await t.call("GET", "/v1/namespaces/garden/memories", { key: read })).body.memories as MemoryUnit[];
    assert.ok(plain.every((u) => u.validity === undefined));
    assert.equal((await t.call("GET", "/v1/namespaces/garden/memories?validity=maybe", { key: read })).status, 400);
  });

  it("GET /v1/bench-results lists the files the server was given; each is sent as on disk; a missing one or number is a 404 saying why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-bench-results-"));
    const file = join(dir, "results.json");
    writeFileSync(file, '{"command":"ramem bench locomo","ks":[5]}');
    const b = await startTestServer({ keys: [{ role: "read", namespaces: ["x"] }], server: { benchResults: [file, join(dir, "gone.json")] } });
    try {
      const key = b.secrets[0]!;
      assert.equal((await b.call("GET", "/v1/bench-results")).status, 401);
      assert.deepEqual((await b.call("GET", "/v1/bench-results", { key })).body, { files: [{ id: 0, path: file }, { id: 1, path: join(dir, "gone.json") }] });
      assert.deepEqual((await b.call("GET", "/v1/bench-results/0", { key })).body, { command: "ramem bench locomo", ks: [5] });
      const gone = await b.call("GET", "/v1/bench-results/1", { key });
      assert.equal(gone.status, 404);
      assert.match(gone.body.detail, /cannot read .*gone\.json: ENOENT/);
      assert.equal((await b.call("GET", "/v1/bench-results/2", { key })).body.code, "BENCH_RESULTS_NOT_FOUND");
      assert.equal((await b.call("GET", "/v1/bench-results/x", { key })).status, 400);
      assert.deepEqual((await t.call("GET", "/v1/bench-results", { key: read })).body, { files: [] }, "none unless given");
    } finally {
      await b.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
