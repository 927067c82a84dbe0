import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createApiKey } from "./auth/create-api-key.js";
import { GARDEN, startTestServer, type TestServer } from "./testing/server-fixture.js";

/** The SDK's own HTTP client against the real server's /mcp, with a Bearer key (or none). */
async function mcpClient(t: TestServer, key?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.server.url}/mcp`), key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : {});
  const client = new Client({ name: "ramem-serve-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("ramem serve: MCP over streamable HTTP at /mcp, with the server's keys", () => {
  let t: TestServer;
  let keyA: string;
  let keyB: string;
  before(async () => {
    t = await startTestServer({ keys: [{ role: "write", namespaces: ["ns-a"] }, { role: "admin", namespaces: ["ns-b"] }], embedDelayMs: 2 });
    [keyA, keyB] = t.secrets as [string, string];
    const stored = await t.call("PUT", "/v1/namespaces/ns-b/sessions/garden", { key: keyB, json: GARDEN });
    assert.equal(stored.status, 200, stored.text);
  });
  after(() => t.stop());

  it("tools work in the key's namespace; a key for ns-a touches nothing of ns-b through any tool", async () => {
    const bUnits = (await t.call("GET", "/v1/namespaces/ns-b/memories", { key: keyB })).body.memories as Array<{ id: string }>;
    const before = (await t.call("GET", "/v1/namespaces/ns-b/export", { key: keyB })).text.split("\n").slice(1).join("\n");
    const a = await mcpClient(t, keyA);
    try {
      assert.deepEqual((await a.client.listTools()).tools.map((x) => x.name).sort(), ["ask", "forget", "recall", "remember", "update"]);
      const mine = await a.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "I moved to Lisbon last August." }] });
      assert.equal(mine.isError, undefined, textOf(mine));
      const recalled = await a.call("recall", { namespace: "ns-a", query: "Where did Ana move?" });
      assert.match((recalled.structuredContent as any).memories[0].content, /Lisbon/);
      assert.equal((await a.call("ask", { namespace: "ns-a", question: "Where did Ana move?" })).isError, undefined);
      // What MCP stored is what REST sees: one store, one namespace.
      const viaRest = await t.call("GET", "/v1/namespaces/ns-a/memories", { key: keyA });
      assert.deepEqual(viaRest.body.memories.map((u: { id: string }) => u.id), (mine.structuredContent as any).unitIds);

      for (const [tool, args] of [
        ["recall", { namespace: "ns-b", query: "support group" }],
        ["ask", { namespace: "ns-b", question: "What did Caroline do?" }],
        ["remember", { namespace: "ns-b", turns: [{ speaker: "Eve", text: "planted" }] }],
        ["remember", { namespace: "ns-b", sessionId: "garden", turns: [{ speaker: "Eve", text: "appended" }] }],
        ["remember", { namespace: "ns-b", sessionId: "garden", replace: true, turns: [{ speaker: "Eve", text: "replaced" }] }],
        ["forget", { namespace: "ns-b", what: "unit", id: bUnits[0]!.id }],
        ["forget", { namespace: "ns-b", what: "session", id: "garden" }],
        ["forget", { namespace: "ns-b", what: "namespace" }],
      ] as const) {
        const result = await a.call(tool, args);
        assert.equal(result.isError, true, `${tool} on ns-b`);
        assert.match(textOf(result), /^FORBIDDEN/, `${tool} on ns-b`);
      }
      // ns-b's ids named under ns-a are simply not there.
      assert.match(textOf(await a.call("forget", { namespace: "ns-a", what: "unit", id: bUnits[0]!.id })), /NOT_FOUND/);
      assert.match(textOf(await a.call("forget", { namespace: "ns-a", what: "session", id: "garden" })), /NOT_FOUND/);
      const after = (await t.call("GET", "/v1/namespaces/ns-b/export", { key: keyB })).text.split("\n").slice(1).join("\n");
      assert.equal(after, before, "ns-b unchanged");
    } finally {
      await a.client.close();
    }
  });

  it("the REST body limit (512 KiB) does not apply to /mcp: a 600 KB turn reaches the tool and is refused there, storing nothing", async () => {
    const a = await mcpClient(t, keyA);
    try {
      const before = (await t.call("GET", "/v1/namespaces/ns-a/stats", { key: keyA })).body?.units ?? 0;
      const huge = await a.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "x".repeat(600_000) }] });
      assert.equal(huge.isError, true);
      assert.match(textOf(huge), /64000|64,000/);
      assert.equal((await t.call("GET", "/v1/namespaces/ns-a/stats", { key: keyA })).body?.units ?? 0, before);
      const rest = await t.call("POST", "/v1/namespaces/ns-a/sessions/big/turns", { key: keyA, json: { turns: [{ speaker: "Ana", text: "x".repeat(600_000) }] } });
      assert.equal(rest.status, 413, "REST keeps its own limit");
    } finally {
      await a.client.close();
    }
  });

  it("no key, an unknown key and a revoked key are refused with 401", async () => {
    await assert.rejects(mcpClient(t), /401/);
    await assert.rejects(mcpClient(t, "rm_not_a_key"), /401/);
    const created = await createApiKey(t.keys, { name: "soon-revoked", role: "write", namespaces: ["ns-a"] });
    const ok = await mcpClient(t, created.secret);
    assert.equal((await ok.call("recall", { namespace: "ns-a", query: "Lisbon" })).isError, undefined);
    await ok.client.close();
    assert.equal(await t.keys.revokeKey(created.record.id, new Date().toISOString()), true);
    await assert.rejects(mcpClient(t, created.secret), /401/);
    const raw = await fetch(`${t.server.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${created.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(raw.status, 401);
    assert.equal(((await raw.json()) as { code: string }).code, "UNAUTHORIZED");
  });

  it("REST appends and MCP remembers on the same session at once: every turn lands once", async () => {
    const created = await t.call("POST", "/v1/namespaces/ns-a/sessions/shared/turns", { key: keyA, json: { startTime: "2023-03-01T09:00:00Z", turns: [{ speaker: "Ana", text: "turn zero" }] } });
    assert.equal(created.status, 200, created.text);
    const clients = await Promise.all(Array.from({ length: 4 }, () => mcpClient(t, keyA)));
    try {
      const rounds = 2;
      await Promise.all([
        ...Array.from({ length: 4 }, async (_, w) => {
          for (let r = 0; r < rounds; r++) {
            const res = await t.call("POST", "/v1/namespaces/ns-a/sessions/shared/turns", { key: keyA, json: { turns: [{ speaker: "Rest", text: `rest writer ${w} round ${r}` }] } });
            assert.equal(res.status, 200, res.text);
          }
        }),
        ...clients.map(async (c, w) => {
          for (let r = 0; r < rounds; r++) {
            const res = await c.call("remember", { namespace: "ns-a", sessionId: "shared", turns: [{ speaker: "Mcp", text: `mcp writer ${w} round ${r}` }] });
            assert.equal(res.isError, undefined, textOf(res));
          }
        }),
      ]);
      const units = (await t.call("GET", "/v1/namespaces/ns-a/memories?session=shared&limit=1000", { key: keyA })).body.memories as Array<{ content: string; provenance: { turnIds: string[] } }>;
      const expected = ["turn zero"];
      for (let w = 0; w < 4; w++) for (let r = 0; r < rounds; r++) expected.push(`rest writer ${w} round ${r}`, `mcp writer ${w} round ${r}`);
      assert.deepEqual(units.map((u) => /turn zero|(rest|mcp) writer \d round \d/.exec(u.content)?.[0]).sort(), expected.sort(), "every turn, once");
      const turnIds = units.flatMap((u) => u.provenance.turnIds);
      assert.equal(new Set(turnIds).size, 1 + 8 * rounds, "no turn id twice");
      assert.equal((await t.call("GET", "/v1/namespaces/ns-a/sessions/shared", { key: keyA })).body.unitCount, 1 + 8 * rounds);
    } finally {
      await Promise.all(clients.map((c) => c.client.close()));
    }
  });
});
