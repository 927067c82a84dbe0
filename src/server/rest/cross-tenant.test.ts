import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTestServer, session, type TestServer } from "../testing/server-fixture.js";

/**
 * Key A is admin on ns-a only. Every route is probed for ns-b (which exists)
 * and ns-ghost (which does not) through the path, and for ns-b's data through
 * filters and unit ids on ns-a's routes. Nothing of ns-b may come back, ns-b
 * must be unchanged afterwards, and ns-b must be indistinguishable from a
 * namespace that does not exist.
 */
const SECRET = "zebra-secret-42";

describe("cross-tenant isolation: zero leaks on every route", () => {
  let t: TestServer;
  let keyA: string;
  let keyB: string;
  let bUnitIds: string[];
  let bExportBefore: string;

  const body = (s: string) => ({ body: s, headers: { "content-type": "application/x-ndjson" } });
  const noExportedAt = (text: string) => text.replace(/"exportedAt":"[^"]+"/, "");

  before(async () => {
    t = await startTestServer({ keys: [{ role: "admin", namespaces: ["ns-a"] }, { role: "admin", namespaces: ["ns-b"] }] });
    [keyA, keyB] = t.secrets as [string, string];
    const put = async (key: string, ns: string, id: string, s: unknown) => assert.equal((await t.call("PUT", `/v1/namespaces/${ns}/sessions/${id}`, { key, json: s })).status, 200);
    // The same session id in both namespaces: a session filter must not cross over.
    await put(keyA, "ns-a", "shared", session("2023-01-01T10:00:00Z", [["Ann", "I planted tulips in the garden."], ["Ben", "Tulips need cold winters."]]));
    await put(keyB, "ns-b", "shared", session("2023-01-01T10:00:00Z", [["Zed", `The vault code is ${SECRET}, do not share it.`], ["Yara", `Noted, ${SECRET} stays with us.`]]));
    await put(keyB, "ns-b", "only-b", session("2023-02-01T10:00:00Z", [["Zed", `Second note about ${SECRET}.`]]));
    bUnitIds = (await t.call("GET", "/v1/namespaces/ns-b/memories", { key: keyB })).body.memories.map((u: any) => u.id);
    assert.equal(bUnitIds.length, 3);
    bExportBefore = (await t.call("GET", "/v1/namespaces/ns-b/export", { key: keyB })).text;
  });
  after(() => t.stop());

  // `instance` echoes the path the caller sent (which may hold an ns-b unit id): not a leak, so it is left out.
  const leaks = (raw: string, echo?: string) => {
    const text = (echo ? raw.replaceAll(JSON.stringify(echo), '""') : raw).replace(/"instance":"[^"]*"/, "");
    return text.toLowerCase().includes(SECRET) || bUnitIds.some((id) => text.includes(id)) || /\bZed\b|\bYara\b/.test(text);
  };

  const exportA = () => t.call("GET", "/v1/namespaces/ns-a/export", { key: keyA });
  const foreignRoutes = (ns: string): Array<[string, string, Record<string, unknown>?]> => [
    ["GET", `/v1/namespaces/${ns}/stats`],
    ["GET", `/v1/namespaces/${ns}/sessions`],
    ["GET", `/v1/namespaces/${ns}/sessions/shared`],
    ["PUT", `/v1/namespaces/${ns}/sessions/x`, { json: session("2023-01-01T00:00:00Z", [["A", "hi"]]) }],
    ["POST", `/v1/namespaces/${ns}/sessions/shared/turns`, { json: { turns: [{ speaker: "A", text: "hi" }] } }],
    ["DELETE", `/v1/namespaces/${ns}/sessions/shared`],
    ["GET", `/v1/namespaces/${ns}/memories`],
    ["GET", `/v1/namespaces/${ns}/memories?session=shared&participant=Zed`],
    ["GET", `/v1/namespaces/${ns}/memories/${"BUNIT"}`],
    ["DELETE", `/v1/namespaces/${ns}/memories/${"BUNIT"}`],
    ["POST", `/v1/namespaces/${ns}/recall`, { json: { query: `vault code ${SECRET}` } }],
    ["POST", `/v1/namespaces/${ns}/ask`, { json: { question: "What is the vault code?" } }],
    ["GET", `/v1/namespaces/${ns}/export`],
    ["POST", `/v1/namespaces/${ns}/import`, { body: "{}" }],
    ["DELETE", `/v1/namespaces/${ns}`],
    // Bad input to a foreign namespace is still a 403: validation never runs for it.
    ["POST", `/v1/namespaces/${ns}/recall`, { body: "{not json", headers: { "content-type": "application/json" } }],
  ];

  for (const [method, path, opts] of foreignRoutes("ns-b")) {
    it(`${method} ${path.replace("BUNIT", "<ns-b unit>")} with key A → 403, and ns-b looks exactly like a namespace that does not exist`, async () => {
      const real = await t.call(method, path.replace("BUNIT", bUnitIds[0]!), { key: keyA, ...(opts ?? {}) });
      const ghost = await t.call(method, path.replace("ns-b", "ns-ghost").replace("BUNIT", bUnitIds[0]!), { key: keyA, ...(opts ?? {}) });
      assert.equal(real.status, 403, real.text);
      assert.equal(real.body.code, "FORBIDDEN");
      assert.match(real.headers.get("content-type") ?? "", /application\/problem\+json/);
      assert.ok(!leaks(real.text), real.text);
      assert.equal(ghost.status, 403);
      // Each response has its own request id: the rest must match.
      const { instance: _i1, detail: d1, requestId: _r1, ...restReal } = real.body;
      const { instance: _i2, detail: d2, requestId: _r2, ...restGhost } = ghost.body;
      assert.deepEqual(restReal, restGhost);
      assert.equal(d1.replace("ns-b", "X"), d2.replace("ns-ghost", "X"));
    });
  }

  it("a percent-encoded foreign namespace is the same namespace: still 403", async () => {
    for (const path of ["/v1/namespaces/ns%2Db/memories", "/v1/namespaces/%6Es-b/export", "/v1/namespaces/ns-b%2F../ns-a/memories"]) {
      const r = await t.call("GET", path, { key: keyA });
      assert.ok(r.status === 403 || r.status === 404, `${path}: ${r.status}`);
      assert.ok(!leaks(r.text), path);
    }
    assert.equal((await t.call("GET", "/v1/namespaces/ns%2Db/memories", { key: keyA })).status, 403);
  });

  it("without a key, every ns-b route is a 401 that says nothing about ns-b", async () => {
    for (const [method, path, opts] of foreignRoutes("ns-b")) {
      const r = await t.call(method, path.replace("BUNIT", bUnitIds[0]!), opts ?? {});
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.equal(r.body.code, "UNAUTHORIZED");
      assert.ok(!leaks(r.text));
    }
  });

  it("filters on ns-a's routes never reach ns-b: same session id, ns-b's participant, its time range", async () => {
    for (const q of ["session=shared", "session=only-b", "participant=Zed", "participant=zed", "from=2023-01-01T00:00:00Z&to=2024-01-01T00:00:00Z", "limit=1000&offset=0"]) {
      const r = await t.call("GET", `/v1/namespaces/ns-a/memories?${q}`, { key: keyA });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.ok(!leaks(r.text), q);
      assert.ok(r.body.memories.every((u: any) => u.namespace === "ns-a"), q);
    }
    assert.equal((await t.call("GET", "/v1/namespaces/ns-a/memories?session=shared", { key: keyA })).body.memories.length, 2);
    // A namespace smuggled in as a query parameter is refused, not obeyed.
    const smuggled = await t.call("GET", "/v1/namespaces/ns-a/memories?namespace=ns-b", { key: keyA });
    assert.equal(smuggled.status, 400);
    assert.ok(!leaks(smuggled.text));
  });

  it("ns-b's unit ids through ns-a's routes: get and delete are 404 and ns-b keeps them", async () => {
    for (const id of bUnitIds) {
      const get = await t.call("GET", `/v1/namespaces/ns-a/memories/${id}`, { key: keyA });
      assert.equal(get.status, 404);
      assert.ok(!leaks(get.text.replace(id, "")));
      const del = await t.call("DELETE", `/v1/namespaces/ns-a/memories/${id}`, { key: keyA });
      assert.equal(del.status, 404);
    }
  });

  it("recall, ask and export on ns-a for ns-b's exact text return nothing of ns-b", async () => {
    const query = `The vault code is ${SECRET}, do not share it.`;
    const recall = await t.call("POST", "/v1/namespaces/ns-a/recall", { key: keyA, json: { query, k: 50 } });
    assert.equal(recall.status, 200);
    // The query is echoed back (frame.need, query): everything else must be ns-a's.
    assert.ok(!leaks(JSON.stringify(recall.body.hits)), "recall hits leak ns-b");
    assert.ok(recall.body.hits.length > 0 && recall.body.hits.every((h: any) => h.unit.namespace === "ns-a"), "recall returned a foreign unit");
    const question = `What is the vault code ${SECRET}?`;
    const ask = await t.call("POST", "/v1/namespaces/ns-a/ask", { key: keyA, json: { question } });
    assert.equal(ask.status, 200);
    assert.ok(!leaks(ask.text, question), "ask leaks ns-b");
    const ex = await exportA();
    assert.equal(ex.status, 200);
    assert.ok(!leaks(ex.text), "export leaks ns-b");
    assert.equal(ex.text.trim().split("\n").length, 1 + 1 + 2);
  });

  it("importing ns-b's export through ns-a's route writes only into ns-a", async () => {
    const fresh = await startTestServer({ keys: [{ role: "admin", namespaces: ["ns-a"] }, { role: "admin", namespaces: ["ns-b"] }] });
    try {
      const [a, b] = fresh.secrets as [string, string];
      await fresh.call("PUT", "/v1/namespaces/ns-b/sessions/s", { key: b, json: session("2023-01-01T10:00:00Z", [["Zed", "hello"]]) });
      const exported = (await fresh.call("GET", "/v1/namespaces/ns-b/export", { key: b })).text;
      const imported = await fresh.call("POST", "/v1/namespaces/ns-a/import", { key: a, ...body(exported) });
      assert.equal(imported.status, 200, imported.text);
      assert.equal(imported.body.namespace, "ns-a");
      assert.equal((await fresh.call("GET", "/v1/namespaces/ns-b/stats", { key: b })).body.units, 1);
      assert.ok((await fresh.call("GET", "/v1/namespaces/ns-a/memories", { key: a })).body.memories.every((u: any) => u.namespace === "ns-a"));
    } finally {
      await fresh.stop();
    }
  });

  it("GET /v1/namespaces lists only the key's namespaces", async () => {
    assert.deepEqual((await t.call("GET", "/v1/namespaces", { key: keyA })).body, { namespaces: ["ns-a"] });
    assert.deepEqual((await t.call("GET", "/v1/namespaces", { key: keyB })).body, { namespaces: ["ns-b"] });
  });

  it("after every probe, ns-b is exactly as it was", async () => {
    const after = (await t.call("GET", "/v1/namespaces/ns-b/export", { key: keyB })).text;
    assert.equal(noExportedAt(after), noExportedAt(bExportBefore));
  });
});

describe("roles: read < write < admin, per namespace", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ keys: [{ role: "read", namespaces: ["ns"] }, { role: "write", namespaces: ["ns"] }, { role: "admin", namespaces: ["ns", "other"] }] });
    await t.call("PUT", "/v1/namespaces/ns/sessions/s", { key: t.secrets[2]!, json: session("2023-01-01T10:00:00Z", [["Ann", "Read me."], ["Ben", "And me."]]) });
  });
  after(() => t.stop());

  const routes = (unitId: string): Array<[string, string, "read" | "write" | "admin", Record<string, unknown>?]> => [
    ["GET", "/v1/namespaces/ns/stats", "read"],
    ["GET", "/v1/namespaces/ns/sessions", "read"],
    ["GET", "/v1/namespaces/ns/sessions/s", "read"],
    ["GET", "/v1/namespaces/ns/memories", "read"],
    ["GET", `/v1/namespaces/ns/memories/${unitId}`, "read"],
    ["POST", "/v1/namespaces/ns/recall", "read", { json: { query: "read" } }],
    ["POST", "/v1/namespaces/ns/ask", "read", { json: { question: "read?" } }],
    ["GET", "/v1/namespaces/ns/export", "read"],
    ["PUT", "/v1/namespaces/ns/sessions/t", "write", { json: session("2023-01-02T10:00:00Z", [["Ann", "new"]]) }],
    ["POST", "/v1/namespaces/ns/sessions/t/turns", "write", { json: { turns: [{ speaker: "Ann", text: "more" }] } }],
    ["DELETE", "/v1/namespaces/ns/sessions/t", "write"],
    ["POST", "/v1/namespaces/ns/import", "write", { body: "{}", headers: { "content-type": "application/x-ndjson" } }],
    ["DELETE", `/v1/namespaces/ns/memories/${unitId}`, "write"],
    ["DELETE", "/v1/namespaces/ns", "admin"],
  ];
  const rank = { read: 0, write: 1, admin: 2 } as const;

  it("each route answers 403 below its role and is let through at or above it", async () => {
    const unitId = (await t.call("GET", "/v1/namespaces/ns/memories?limit=1", { key: t.secrets[0]! })).body.memories[0].id;
    for (const [i, role] of (["read", "write", "admin"] as const).entries()) {
      for (const [method, path, needs, opts] of routes(unitId)) {
        if (role === "admin" && needs !== "admin") continue; // admin is checked on the last route only; it would delete what others probe
        const r = await t.call(method, path, { key: t.secrets[i]!, ...(opts ?? {}) });
        if (rank[role] < rank[needs]) {
          assert.equal(r.status, 403, `${role} ${method} ${path}: ${r.text}`);
          assert.match(r.body.detail, new RegExp(`needs ${needs}`));
        } else {
          assert.notEqual(r.status, 403, `${role} ${method} ${path}: ${r.text}`);
          assert.notEqual(r.status, 401);
        }
      }
    }
  });

  it("a wrong, malformed or revoked key is a 401", async () => {
    assert.equal((await t.call("GET", "/v1/namespaces/ns/stats", { key: "rm_wrong" })).status, 401);
    assert.equal((await t.call("GET", "/v1/namespaces/ns/stats", { headers: { authorization: "Basic abc" } })).status, 401);
    assert.equal((await t.call("GET", "/v1/namespaces/ns/stats")).status, 401);
    const secret = await t.createKey("read", ["ns"]);
    assert.equal((await t.call("GET", "/v1/namespaces", { key: secret })).status, 200);
    const id = (await t.keys.listKeys()).at(-1)!.id;
    await t.keys.revokeKey(id, new Date().toISOString());
    const revoked = await t.call("GET", "/v1/namespaces", { key: secret });
    assert.equal(revoked.status, 401);
    assert.match(revoked.body.detail, /unknown or revoked/);
  });
});
