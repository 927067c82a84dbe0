import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, GARDEN, type TestServer } from "../testing/server-fixture.js";

/**
 * Bad input of every kind: a 4xx problem+json with a clear message naming the
 * field, and the store exactly as before (compared through a full export).
 */
describe("bad input: a clear 4xx problem, nothing stored", () => {
  let t: TestServer;
  let before_: string;
  const snapshot = async () => (await t.call("GET", "/v1/namespaces/garden/export")).text.replace(/"exportedAt":"[^"]+"/, "");
  const nsList = async () => (await t.call("GET", "/v1/namespaces")).body.namespaces;

  before(async () => {
    t = await startTestServer({ server: { maxBodyBytes: 512 * 1024 } });
    assert.equal((await t.call("PUT", "/v1/namespaces/garden/sessions/s1", { json: GARDEN })).status, 200);
    before_ = await snapshot();
  });
  after(() => t.stop());

  const turn = (over: Record<string, unknown> = {}) => ({ speaker: "Ann", text: "hello", ...over });
  const put = (json: unknown, sid = "s1") => ["PUT", `/v1/namespaces/garden/sessions/${sid}`, { json }] as const;
  const cases: Array<{ name: string; req: readonly [string, string, Record<string, unknown>]; status: number; code: string; detail: RegExp; field?: string }> = [
    { name: "malformed JSON", req: ["PUT", "/v1/namespaces/garden/sessions/s1", { body: '{"startTime": "2023-01-01T00:00:00Z", "turns": [', headers: { "content-type": "application/json" } }], status: 400, code: "MALFORMED_JSON", detail: /not valid JSON/ },
    { name: "a body that is not JSON at all", req: ["POST", "/v1/namespaces/garden/recall", { body: "query=hi", headers: { "content-type": "application/x-www-form-urlencoded" } }], status: 415, code: "UNSUPPORTED_MEDIA_TYPE", detail: /must be JSON/ },
    { name: "a 1 MB turn", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "x".repeat(1_000_000) })] }, "big"), status: 413, code: "PAYLOAD_TOO_LARGE", detail: /over the limit of 524288 bytes/ },
    { name: "a turn over 64,000 characters (under the body limit)", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "y".repeat(70_000) })] }, "long"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[0\]\.text: a turn may hold at most 64000/, field: "body.turns[0].text" },
    { name: "an invalid date", req: put({ startTime: "yesterday", turns: [turn()] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /body\.startTime: expected an ISO 8601 date-time/, field: "body.startTime" },
    { name: "an impossible date", req: put({ startTime: "2023-02-30T10:00:00Z", turns: [turn()] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /startTime/ },
    { name: "an invalid turn time", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn(), turn({ time: "13/45/2023" })] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[1\]\.time/, field: "body.turns[1].time" },
    { name: "endTime before startTime", req: put({ startTime: "2023-01-02T00:00:00Z", endTime: "2023-01-01T00:00:00Z", turns: [turn()] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /endTime/ },
    { name: "an invalid date in a list filter", req: ["GET", "/v1/namespaces/garden/memories?from=last-week", {}], status: 400, code: "VALIDATION_FAILED", detail: /query\.from/, field: "query.from" },
    { name: "an empty range in a list filter", req: ["GET", "/v1/namespaces/garden/memories?from=2023-02-01T00:00:00Z&to=2023-01-01T00:00:00Z", {}], status: 400, code: "VALIDATION_FAILED", detail: /query\.to/ },
    { name: "an unknown field in the body", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn()], colour: "red" }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /unknown field "colour"/, field: "body" },
    { name: "a body id that differs from the path", req: put({ id: "other", startTime: "2023-01-01T00:00:00Z", turns: [turn()] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /body\.id: "other" differs/ },
    { name: "an unknown field in a turn", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ mood: "happy" })] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[0\]: unknown field "mood"/ },
    { name: "an unknown query parameter", req: ["GET", "/v1/namespaces/garden/memories?sesion=s1", {}], status: 400, code: "VALIDATION_FAILED", detail: /unknown field "sesion"/ },
    { name: "wrong types", req: ["POST", "/v1/namespaces/garden/recall", { json: { query: 42, k: "ten" } }], status: 400, code: "VALIDATION_FAILED", detail: /body\.query/ },
    { name: "k out of range", req: ["POST", "/v1/namespaces/garden/recall", { json: { query: "necklace", k: 0 } }], status: 400, code: "VALIDATION_FAILED", detail: /body\.k/ },
    { name: "an empty query", req: ["POST", "/v1/namespaces/garden/recall", { json: { query: "   " } }], status: 400, code: "VALIDATION_FAILED", detail: /the query is empty/ },
    { name: "a turn without speaker", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [{ text: "who said this?" }] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[0\]\.speaker/ },
    { name: "an empty turn", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "" })] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /needs text or an attachment/ },
    { name: "no turns", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [] }, "d"), status: 400, code: "VALIDATION_FAILED", detail: /at least one turn/ },
    { name: "two turns with one id", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ id: "a" }), turn({ id: "a" })] }, "d"), status: 409, code: "DUPLICATE_TURN", detail: /appears twice/ },
    { name: "an invalid namespace name", req: ["PUT", "/v1/namespaces/-bad!/sessions/s", { json: { startTime: "2023-01-01T00:00:00Z", turns: [turn()] } }], status: 400, code: "VALIDATION_FAILED", detail: /ns/ },
    { name: "an unknown namespace", req: ["GET", "/v1/namespaces/nowhere/memories", {}], status: 404, code: "NAMESPACE_NOT_FOUND", detail: /holds no sessions/ },
    { name: "a filter on an unknown field", req: ["POST", "/v1/namespaces/garden/recall", { json: { query: "necklace", filter: { colour: "red" } } }], status: 400, code: "BAD_FILTER", detail: /unknown filter field "colour"/ },
    { name: "a filter of the wrong type", req: ["GET", `/v1/namespaces/garden/memories?filter=${encodeURIComponent('{"sessionId":{"gte":1}}')}`, {}], status: 400, code: "BAD_FILTER", detail: /sessionId is text/ },
    { name: "metadata over the limit", req: ["POST", "/v1/namespaces/garden/sessions/s9/turns", { json: { turns: [turn({ metadata: { big: "x".repeat(5000) } })] } }], status: 400, code: "VALIDATION_FAILED", detail: /metadata is \d+ bytes/ },
    { name: "an unknown role", req: ["POST", "/v1/namespaces/garden/messages", { json: { messages: [{ role: "wizard", content: "hi" }] } }], status: 400, code: "VALIDATION_FAILED", detail: /role/ },
    { name: "a message over 64,000 characters (under the body limit): named by the message the caller sent", req: ["POST", "/v1/namespaces/garden/messages", { json: { messages: [{ role: "user", content: "hi" }, { role: "user", content: "z".repeat(70_000) }] } }], status: 400, code: "BAD_INPUT", detail: /^messages\[1\] › content: turn text is 70,000 characters/ },
    { name: "empty content", req: ["POST", "/v1/namespaces/garden/messages", { json: { messages: [{ role: "user", content: " " }] } }], status: 400, code: "BAD_INPUT", detail: /content is empty/ },
    { name: "an update of an unknown unit", req: ["PATCH", "/v1/namespaces/garden/memories/u_nope", { json: { text: "new words" } }], status: 404, code: "UNIT_NOT_FOUND", detail: /no memory unit/ },
    { name: "an unknown route", req: ["GET", "/v1/nothing-here", {}], status: 404, code: "ROUTE_NOT_FOUND", detail: /no route GET \/v1\/nothing-here/ },
    { name: "an unknown route outside /v1", req: ["GET", "/admin", {}], status: 404, code: "ROUTE_NOT_FOUND", detail: /no route/ },
    { name: "a missing body", req: ["POST", "/v1/namespaces/garden/recall", { headers: { "content-type": "application/json" } }], status: 400, code: "MALFORMED_JSON", detail: /JSON/ },
    { name: "a broken import", req: ["POST", "/v1/namespaces/fresh/import", { body: '{"format":"ramem-export"}\n', headers: { "content-type": "application/x-ndjson" } }], status: 400, code: "BAD_EXPORT", detail: /header/ },
    { name: "an import with another embedder", req: ["POST", "/v1/namespaces/fresh/import", { body: '{"format":"ramem-export","version":1,"namespace":"x","embedder":"use-lite@0.2.0","dimensions":512,"sessions":0,"units":0,"exportedAt":"2023-01-01T00:00:00Z"}\n', headers: { "content-type": "application/x-ndjson" } }], status: 409, code: "EMBEDDER_MISMATCH", detail: /use-lite@0\.2\.0/ },
    { name: "a NUL character in a turn's text", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "nul \u0000 byte" })] }, "nul"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[0\]\.text: contains a NUL character \(U\+0000\) at character 5/, field: "body.turns[0].text" },
    { name: "a lone surrogate in a speaker name", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn({ speaker: "An\ud800n" })] }, "sur"), status: 400, code: "VALIDATION_FAILED", detail: /body\.turns\[0\]\.speaker: contains a lone surrogate \(U\+D800\) at character 3/, field: "body.turns[0].speaker" },
    { name: "a NUL character in a participant of an append", req: ["POST", "/v1/namespaces/garden/sessions/s1/turns", { json: { turns: [turn()], participants: ["ok", "b\u0000d"] } }], status: 400, code: "VALIDATION_FAILED", detail: /body\.participants\[1\]: contains a NUL/, field: "body.participants[1]" },
    { name: "a NUL character in the session id of the path", req: put({ startTime: "2023-01-01T00:00:00Z", turns: [turn()] }, "s%00id"), status: 400, code: "VALIDATION_FAILED", detail: /param\.sessionId: contains a NUL/ },
    { name: "a body that is not UTF-8", req: ["PUT", "/v1/namespaces/garden/sessions/latin1", { body: Buffer.concat([Buffer.from('{"startTime":"2023-01-01T00:00:00Z","turns":[{"speaker":"Ann","text":"caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]), headers: { "content-type": "application/json" } }], status: 400, code: "INVALID_UTF8", detail: /^body: invalid UTF-8 at byte 73 \(line 1, column 74: 0xE9\)/ },
    { name: "an import that is not UTF-8", req: ["POST", "/v1/namespaces/fresh/import", { body: Buffer.from([0x7b, 0xff, 0x7d, 0x0a]), headers: { "content-type": "application/x-ndjson" } }], status: 400, code: "INVALID_UTF8", detail: /invalid UTF-8 at byte 1/ },
    { name: "appending a turn id the session already has", req: ["POST", "/v1/namespaces/garden/sessions/s1/turns", { json: { turns: [turn({ id: "s1:2" })] } }], status: 409, code: "DUPLICATE_TURN", detail: /already has a turn "s1:2"/ },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status} ${c.code}`, async () => {
      const [method, path, opts] = c.req;
      const r = await t.call(method, path, opts);
      assert.equal(r.status, c.status, r.text);
      assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal(r.body.code, c.code, r.text);
      assert.equal(r.body.status, c.status);
      assert.equal(typeof r.body.title, "string");
      assert.match(r.body.type, /^urn:ramem:problem:/);
      assert.match(r.body.detail, c.detail);
      assert.ok(typeof r.body.hint === "string" && r.body.hint.length > 0, `no hint: ${r.text}`);
      if (c.field) assert.ok(r.body.errors.some((e: any) => e.path === c.field), `errors do not name ${c.field}: ${r.text}`);
      assert.equal(await snapshot(), before_, "the store changed");
      assert.deepEqual(await nsList(), ["garden"]);
    });
  }

  it("a 10 MB value is quoted back cut to 200 characters, not whole", async () => {
    const exported = (await t.call("GET", "/v1/namespaces/garden/export")).text.trim().split("\n");
    const unit = JSON.parse(exported[2]!);
    const twice = JSON.stringify({ ...unit, unit: { ...unit.unit, id: "u".repeat(10_000_000) } });
    const body = [exported[0]!, exported[1]!, twice, twice, ...exported.slice(4)].join("\n");
    const r = await t.call("POST", "/v1/namespaces/copy/import", { body, headers: { "content-type": "application/x-ndjson" } });
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.equal(r.body.code, "BAD_EXPORT");
    assert.ok(r.text.length < 1_000, `a ${r.text.length}-character problem`);
    assert.match(r.body.detail, /unit "u{200}"… \(10,000,000 characters\) appears twice/);
    assert.deepEqual(await nsList(), ["garden"]);
  });

  it("a session with one bad turn among good ones stores none of it", async () => {
    const r = await t.call("PUT", "/v1/namespaces/garden/sessions/half", {
      json: { startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "good one" }), turn({ text: "good two" }), turn({ speaker: "" })] },
    });
    assert.equal(r.status, 400);
    assert.equal((await t.call("GET", "/v1/namespaces/garden/sessions/half")).status, 404);
    assert.equal(await snapshot(), before_);
  });

  it("--max-body is configurable: a small limit refuses what the default accepts", async () => {
    const small = await startTestServer({ server: { maxBodyBytes: 200 } });
    try {
      const json = { startTime: "2023-01-01T00:00:00Z", turns: [turn({ text: "z".repeat(300) })] };
      const r = await small.call("PUT", "/v1/namespaces/a/sessions/s", { json });
      assert.equal(r.status, 413);
      assert.match(r.body.detail, /200 bytes/);
      assert.equal((await small.call("GET", "/v1/namespaces")).body.namespaces.length, 0);
      assert.equal((await t.call("PUT", "/v1/namespaces/other/sessions/s", { json })).status, 200);
      assert.equal((await t.call("DELETE", "/v1/namespaces/other")).status, 200);
    } finally {
      await small.stop();
    }
  });
});
