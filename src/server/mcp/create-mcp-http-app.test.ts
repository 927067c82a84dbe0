import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Hono } from "hono";
import { Memory } from "../../memory.js";
import { RamemError } from "../../model/errors.js";
import type { Principal } from "../auth/principal.js";
import { createMcpHttpApp, type Authenticate } from "./create-mcp-http-app.js";
import { CHAT, NOW, snapshot, textOf, withMemory } from "./testing/mcp-fixtures.js";

const KEYS: Record<string, Principal> = {
  "secret-a": { keyId: "key_a", role: "write", namespaces: ["ns-a"] },
  "secret-b": { keyId: "key_b", role: "admin", namespaces: ["ns-b"] },
  "secret-ra": { keyId: "key_ra", role: "read", namespaces: ["ns-a"] },
};

/** The shape of the REST server's authenticate: bearer token → principal, or a RamemError. */
const authenticate: Authenticate = async (request) => {
  const header = request.headers.get("authorization");
  if (!header) throw new RamemError("UNAUTHORIZED", "no API key", { hint: "send Authorization: Bearer <key>" });
  const principal = KEYS[header.replace(/^Bearer /, "")];
  if (!principal) throw new RamemError("UNAUTHORIZED", "unknown or revoked API key", { hint: "create one with ramem keys create" });
  return principal;
};

/** Mounted the way `ramem serve` mounts it: under /mcp of a larger app. */
async function startServer(memory: Memory): Promise<{ url: URL; close(): Promise<void> }> {
  const app = new Hono();
  app.route("/mcp", createMcpHttpApp({ memory, authenticate, now: () => NOW }));
  let server: ServerType;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => resolve(info.port));
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

async function clientFor(url: URL, token?: string) {
  const transport = new StreamableHTTPClientTransport(url, token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: "ramem-http-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

describe("MCP over streamable HTTP", () => {
  it("a key for ns-a remembers and recalls there, and cannot touch ns-b", async () => {
    await withMemory(async (memory) => {
      const http = await startServer(memory);
      try {
        const b = await clientFor(http.url, "secret-b");
        const stored = await b.call("remember", { namespace: "ns-b", ...CHAT });
        assert.equal(stored.isError, undefined, textOf(stored));
        const bUnits = (stored.structuredContent as any).unitIds as string[];
        await b.client.close();
        const before = await snapshot(memory, "ns-b");

        const a = await clientFor(http.url, "secret-a");
        const { tools } = await a.client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ["ask", "forget", "recall", "remember", "update"]);
        const mine = await a.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "I moved to Lisbon last August." }] });
        assert.equal(mine.isError, undefined, textOf(mine));
        const recalled = await a.call("recall", { namespace: "ns-a", query: "Where did Ana move?" });
        assert.match((recalled.structuredContent as any).memories[0].content, /Lisbon/);
        assert.equal((await a.call("ask", { namespace: "ns-a", question: "Where did Ana move?" })).isError, undefined);

        for (const [tool, args] of [
          ["recall", { namespace: "ns-b", query: "support group" }],
          ["ask", { namespace: "ns-b", question: "What did Caroline do?" }],
          ["remember", { namespace: "ns-b", turns: [{ speaker: "Eve", text: "planted" }] }],
          ["forget", { namespace: "ns-b", what: "unit", id: bUnits[0] }],
          ["forget", { namespace: "ns-b", what: "namespace" }],
        ] as const) {
          const result = await a.call(tool, args);
          assert.equal(result.isError, true, `${tool} on ns-b`);
          assert.match(textOf(result), /^FORBIDDEN/);
        }
        const crossId = await a.call("forget", { namespace: "ns-a", what: "unit", id: bUnits[0] });
        assert.match(textOf(crossId), /NOT_FOUND/);
        assert.equal(await snapshot(memory, "ns-b"), before);
        await a.client.close();

        const reader = await clientFor(http.url, "secret-ra");
        assert.match(textOf(await reader.call("remember", { namespace: "ns-a", turns: [{ speaker: "Eve", text: "x" }] })), /^FORBIDDEN/);
        assert.equal((await reader.call("recall", { namespace: "ns-a", query: "Lisbon" })).isError, undefined);
        await reader.client.close();
      } finally {
        await http.close();
      }
    });
  });

  it("forget over HTTP: a deleted unit, session and namespace are never recalled again", async () => {
    await withMemory(async (memory) => {
      const http = await startServer(memory);
      try {
        const b = await clientFor(http.url, "secret-b");
        const s1 = (await b.call("remember", { namespace: "ns-b", ...CHAT })).structuredContent as any;
        const s2 = (await b.call("remember", { namespace: "ns-b", turns: [{ speaker: "Ben", text: "The support group moved to Fridays." }] })).structuredContent as any;
        const recalled = async () =>
          ((await b.call("recall", { namespace: "ns-b", query: "support group sunrise adoption Fridays", k: 20 })).structuredContent as any).memories.map(
            (m: any) => m.unitId,
          );
        assert.equal((await recalled()).length, 4);
        await b.call("forget", { namespace: "ns-b", what: "unit", id: s1.unitIds[1] });
        assert.ok(!(await recalled()).includes(s1.unitIds[1]));
        await b.call("forget", { namespace: "ns-b", what: "session", id: s1.sessionId });
        assert.deepEqual(await recalled(), s2.unitIds);
        const all = await b.call("forget", { namespace: "ns-b", what: "namespace" });
        assert.equal((all.structuredContent as any).unitsDeleted, 1);
        assert.deepEqual(await recalled(), []);
        await b.client.close();
      } finally {
        await http.close();
      }
    });
  });

  it("bad input over HTTP: malformed JSON or invalid UTF-8 is a 400, a 1 MB turn or a NUL a tool error, a body over 4 MiB a 413, no tool name −32602; nothing stored", async () => {
    await withMemory(async (memory) => {
      const http = await startServer(memory);
      try {
        const post = (body: string) =>
          fetch(http.url, {
            method: "POST",
            headers: { authorization: "Bearer secret-a", "content-type": "application/json", accept: "application/json, text/event-stream" },
            body,
          });
        const malformed = await post('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember",');
        assert.equal(malformed.status, 400);
        assert.match(await malformed.text(), /Parse error/i);

        const a = await clientFor(http.url, "secret-a");
        const huge = await a.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "x".repeat(1_000_000) }] });
        assert.equal(huge.isError, true);
        assert.match(textOf(huge), /64000|64,000/);
        await a.client.close();

        const call = (text: string) =>
          JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "remember", arguments: { namespace: "ns-a", turns: [{ speaker: "Ana", text }] } } });
        assert.equal((await post(call("y".repeat(5 * 1024 * 1024)))).status, 413);

        const nameless = await post(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { arguments: { namespace: "ns-a" } } }));
        assert.deepEqual(((await nameless.json()) as { error: unknown }).error, { code: -32602, message: "tools/call needs params.name, the tool to call: one of remember, recall, ask, forget, update" });
        const latin1 = Buffer.concat([Buffer.from(call("caf").slice(0, -4)), Buffer.from([0xe9]), Buffer.from('"}]}}}')]);
        const notUtf8 = await fetch(http.url, { method: "POST", headers: { authorization: "Bearer secret-a", "content-type": "application/json", accept: "application/json, text/event-stream" }, body: latin1 });
        assert.equal(notUtf8.status, 400);
        assert.match(((await notUtf8.json()) as { error: { message: string } }).error.message, /^Parse error: invalid UTF-8 at byte \d+ \(line 1, column \d+: 0xE9\)$/);
        const nul = JSON.parse(await (await post(call("a\u0000b"))).text());
        assert.equal(nul.result?.isError, true, JSON.stringify(nul));
        assert.match(nul.result.content[0].text, /NUL character \(U\+0000\) at character 2/);
        assert.equal((await memory.stats("ns-a")).units, 0);
      } finally {
        await http.close();
      }
    });
  });

  it("no key or an unknown key: the client fails with 401, and the body is a problem document", async () => {
    await withMemory(async (memory) => {
      const http = await startServer(memory);
      try {
        await assert.rejects(clientFor(http.url), /401/);
        await assert.rejects(clientFor(http.url, "wrong"), /401/);

        const res = await fetch(http.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        assert.equal(res.status, 401);
        assert.equal(res.headers.get("content-type"), "application/problem+json");
        assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
        const body = (await res.json()) as Record<string, unknown>;
        assert.deepEqual(
          { status: body.status, code: body.code, title: body.title, detail: body.detail, hint: body.hint, type: body.type },
          { status: 401, code: "UNAUTHORIZED", title: "Unauthorized", detail: "no API key", hint: "send Authorization: Bearer <key>", type: "urn:ramem:problem:unauthorized" },
        );
      } finally {
        await http.close();
      }
    });
  });

  it("8 concurrent writers: appends to one session and new sessions all land, none lost or duplicated", async () => {
    await withMemory(async (stored) => {
      // An embedder that yields (as WASM or HTTP ones do) between reading a session and writing it back: where a missing lock shows.
      const slow = { ...stored.embedder, embed: async (texts: readonly string[]) => (await new Promise((r) => setTimeout(r, 3)), stored.embedder.embed(texts)) };
      const memory = new Memory({ store: stored.store, embedder: slow });
      const http = await startServer(memory);
      try {
        const a = await clientFor(http.url, "secret-a");
        const first = (await a.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "turn zero" }] })).structuredContent as any;
        const writers = await Promise.all(Array.from({ length: 8 }, () => clientFor(http.url, "secret-a")));
        const results = await Promise.all(
          writers.flatMap((w, i) => [
            w.call("remember", { namespace: "ns-a", sessionId: first.sessionId, turns: [{ speaker: "Ana", text: `appended number ${i}` }] }),
            w.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ben", text: `fresh session ${i}` }] }),
          ]),
        );
        for (const r of results) assert.equal(r.isError, undefined, textOf(r));
        const session = await memory.list({ namespace: "ns-a", sessionId: first.sessionId });
        assert.equal(session.length, 9);
        const turnIds = session.map((u) => u.provenance.turnIds[0]).sort();
        assert.equal(new Set(turnIds).size, 9, "every appended turn got its own id");
        const contents = session.map((u) => u.content);
        for (let i = 0; i < 8; i++) assert.ok(contents.some((c) => c.endsWith(`appended number ${i}`)), `append ${i} landed`);
        const sessions = await memory.store.listSessions("ns-a");
        assert.equal(sessions.length, 9, "eight new sessions with distinct ids, plus the appended one");
        await Promise.all([a, ...writers].map((w) => w.client.close()));
      } finally {
        await http.close();
      }
    });
  });

  it("a browser request from a foreign Origin is refused before authentication; loopback and allowed origins pass", async () => {
    await withMemory(async (memory) => {
      const app = createMcpHttpApp({ memory, authenticate, allowedOrigins: ["https://agent.example.com"] });
      const post = (origin: string) =>
        app.request("/", {
          method: "POST",
          headers: { origin, authorization: "Bearer secret-a", "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
      const evil = await post("http://evil.example:8787");
      assert.equal(evil.status, 403);
      assert.equal(((await evil.json()) as { code: string }).code, "ORIGIN_NOT_ALLOWED");
      assert.equal((await post("null")).status, 403);
      for (const ok of ["http://localhost:6274", "http://127.0.0.1:8787", "https://agent.example.com"]) {
        const res = await post(ok);
        assert.equal(res.status, 200, ok);
        assert.match(await res.text(), /"remember"/);
      }
    });
  });

  it("GET and DELETE answer 405 after authentication (stateless: no event stream, no session)", async () => {
    await withMemory(async (memory) => {
      const http = await startServer(memory);
      try {
        const unauth = await fetch(http.url, { method: "GET", headers: { accept: "text/event-stream" } });
        assert.equal(unauth.status, 401);
        for (const method of ["GET", "DELETE"]) {
          const res = await fetch(http.url, { method, headers: { authorization: "Bearer secret-a", accept: "text/event-stream" } });
          assert.equal(res.status, 405, method);
          assert.equal(res.headers.get("allow"), "POST");
          assert.equal(((await res.json()) as { code: string }).code, "METHOD_NOT_ALLOWED");
        }
      } finally {
        await http.close();
      }
    });
  });

  it("an authenticator that throws something else fails closed with 500", async () => {
    await withMemory(async (memory) => {
      const app = createMcpHttpApp({
        memory,
        authenticate: async () => {
          throw new Error("key store unreachable");
        },
      });
      const res = await app.request("/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      assert.equal(res.status, 500);
      assert.equal(((await res.json()) as { code: string }).code, "AUTH_FAILED");
      const forbidden = createMcpHttpApp({
        memory,
        authenticate: async () => {
          throw new RamemError("FORBIDDEN", "this key may not use MCP");
        },
      });
      assert.equal((await forbidden.request("/", { method: "POST", body: "{}" })).status, 403);
    });
  });
});
