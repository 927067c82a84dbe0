import { describe, it } from "node:test";
import { request as httpRequest } from "node:http";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { openMemory } from "../open-memory.js";
import { openApiKeyStore } from "../store/open-api-key-store.js";
import { RamemError } from "../model/errors.js";
import { createApiKey } from "./auth/create-api-key.js";
import { startServer } from "./serve.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import type { Embedder } from "../providers/embedder.js";
import { startTestServer } from "./testing/server-fixture.js";

async function withStore(fn: (deps: { memory: Awaited<ReturnType<typeof openMemory>>; keys: Awaited<ReturnType<typeof openApiKeyStore>> }) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "ramem-serve-"));
  const db = join(dir, "s.db");
  const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
  const keys = await openApiKeyStore(db);
  try {
    await fn({ memory, keys });
  } finally {
    await keys.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("startServer", () => {
  it("refuses 0.0.0.0 (and ::) without API keys, saying why and how", async () => {
    await withStore(async ({ memory, keys }) => {
      for (const host of ["0.0.0.0", "::", "192.168.1.10"]) {
        await assert.rejects(startServer({ memory, keys, host, port: 0, warn: () => {} }), (err: unknown) => {
          assert.ok(err instanceof RamemError, String(err));
          assert.equal(err.code, "NO_API_KEYS");
          assert.match(err.message, new RegExp(`refusing to listen on ${host.replaceAll(".", "\\.")}.*no API key exists`));
          assert.match(err.hint ?? "", /ramem keys create --name .* --role .* --namespace/);
          return true;
        });
      }
      // A revoked key is no key.
      const { record } = await createApiKey(keys, { name: "old", role: "read", namespaces: ["a"] });
      await keys.revokeKey(record.id, new Date().toISOString());
      await assert.rejects(startServer({ memory, keys, host: "0.0.0.0", port: 0, warn: () => {} }), /refusing/);
    });
  });

  it("binds 0.0.0.0 once a key exists, and then every request needs a key", async () => {
    await withStore(async ({ memory, keys }) => {
      const { secret } = await createApiKey(keys, { name: "bot", role: "read", namespaces: ["a"] });
      const server = await startServer({ memory, keys, host: "0.0.0.0", port: 0, warn: () => {} });
      try {
        assert.equal(server.open, false);
        const url = `http://127.0.0.1:${server.port}`;
        assert.equal((await fetch(`${url}/v1/namespaces`)).status, 401);
        assert.equal((await fetch(`${url}/v1/namespaces`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
        assert.equal((await fetch(`${url}/health`)).status, 200);
      } finally {
        await server.close();
      }
    });
  });

  it("on loopback with no keys runs open as the local user, warns loudly, and closes once a key is created", async () => {
    await withStore(async ({ memory, keys }) => {
      const warnings: string[] = [];
      const server = await startServer({ memory, keys, port: 0, warn: (m) => warnings.push(m) });
      try {
        assert.equal(server.host, "127.0.0.1");
        assert.equal(server.open, true);
        assert.match(warnings.join("\n"), /WARNING: no API keys exist.*every namespace/);
        const put = await fetch(`${server.url}/v1/namespaces/any/sessions/s`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ startTime: "2023-01-01T00:00:00Z", turns: [{ speaker: "A", text: "open mode works" }] }),
        });
        assert.equal(put.status, 200);
        await createApiKey(keys, { name: "first", role: "read", namespaces: ["any"] });
        const after = await fetch(`${server.url}/v1/namespaces/any/stats`);
        assert.equal(after.status, 401);
      } finally {
        await server.close();
      }
    });
  });

  it("DNS rebinding: a foreign Host and Origin is refused with 403 on export, write and delete, in open mode and on every route", async () => {
    await withStore(async ({ memory, keys }) => {
      const server = await startServer({ memory, keys, port: 0, warn: () => {} });
      try {
        assert.equal(server.open, true);
        await memory.ingest([{ session: { id: "s", namespace: "victim", startTime: "2023-01-01T00:00:00Z", endTime: "2023-01-01T00:00:00Z", participants: [] }, turns: [{ id: "t", speaker: "A", text: "private" }] }]);
        const rebound = { host: `attacker.example:${server.port}`, origin: `http://attacker.example:${server.port}` };
        const session = JSON.stringify({ startTime: "2023-01-01T00:00:00Z", turns: [{ speaker: "A", text: "planted" }] });
        const attempts: Array<[string, string, string | undefined]> = [
          ["GET", "/v1/namespaces/victim/export", undefined],
          ["PUT", "/v1/namespaces/victim/sessions/planted", session],
          ["DELETE", "/v1/namespaces/victim", undefined],
          ["POST", "/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })],
          ["GET", "/health", undefined],
        ];
        for (const [method, path, body] of attempts) {
          for (const headers of [rebound, { host: rebound.host }, { host: `127.0.0.1:${server.port}`, origin: rebound.origin }]) {
            const r = await rawRequest(server.port, method, path, headers, body);
            assert.equal(r.status, 403, `${method} ${path} ${JSON.stringify(headers)}: ${r.body}`);
            assert.match(JSON.parse(r.body).code, /^(HOST|ORIGIN)_NOT_ALLOWED$/);
          }
        }
        assert.equal((await memory.stats("victim")).sessions, 1, "nothing was written or deleted");
        const local = await rawRequest(server.port, "GET", "/v1/namespaces/victim/export", { host: `localhost:${server.port}` });
        assert.equal(local.status, 200, "a loopback Host is answered");
      } finally {
        await server.close();
      }
    });
  });

  it("--allowed-hosts / --allowed-origins (allowedHosts, allowedOrigins) answer more names", async () => {
    await withStore(async ({ memory, keys }) => {
      const server = await startServer({ memory, keys, port: 0, warn: () => {}, allowedHosts: ["memory.example"], allowedOrigins: ["https://agent.example"] });
      try {
        const r = await rawRequest(server.port, "GET", "/health", { host: "memory.example", origin: "https://agent.example" });
        assert.equal(r.status, 200, r.body);
      } finally {
        await server.close();
      }
    });
  });

  it("mounts a sub-app at /mcp that shares the server's authenticate", async () => {
    await withStore(async ({ memory, keys }) => {
      const { secret } = await createApiKey(keys, { name: "bot", role: "write", namespaces: ["a", "b"] });
      const server = await startServer({
        memory,
        keys,
        port: 0,
        warn: () => {},
        subApps: {
          "/mcp": ({ authenticate }) =>
            new Hono().post("/", async (c) => {
              const principal = await authenticate(c.req.raw);
              return c.json({ keyId: principal.keyId, role: principal.role, namespaces: principal.namespaces });
            }),
        },
      });
      try {
        const ok = await fetch(`${server.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${secret}` } });
        assert.equal(ok.status, 200);
        const body = (await ok.json()) as { role: string; namespaces: string[] };
        assert.deepEqual([body.role, body.namespaces], ["write", ["a", "b"]]);
        const denied = await fetch(`${server.url}/mcp`, { method: "POST" });
        assert.equal(denied.status, 401);
        assert.equal(((await denied.json()) as { code: string }).code, "UNAUTHORIZED");
        assert.equal((await fetch(`${server.url}/health`)).status, 200);
      } finally {
        await server.close();
      }
    });
  });

  it("mounts MCP at /mcp by default (its own 401 problem), and mcp: false leaves it out", async () => {
    await withStore(async ({ memory, keys }) => {
      await createApiKey(keys, { name: "bot", role: "write", namespaces: ["a"] });
      const on = await startServer({ memory, keys, port: 0, warn: () => {} });
      const off = await startServer({ memory, keys, port: 0, warn: () => {}, mcp: false });
      try {
        const post = (url: string) => fetch(`${url}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
        const mounted = await post(on.url);
        assert.equal(mounted.status, 401);
        assert.match(mounted.headers.get("www-authenticate") ?? "", /^Bearer/, "the MCP app's own 401, not REST's");
        assert.equal((await post(off.url)).status, 404);
      } finally {
        await on.close();
        await off.close();
      }
    });
  });

  it("a port in use is a clear error", async () => {
    await withStore(async ({ memory, keys }) => {
      const first = await startServer({ memory, keys, port: 0, warn: () => {} });
      try {
        await assert.rejects(startServer({ memory, keys, port: first.port, warn: () => {} }), (err: unknown) => {
          assert.ok(err instanceof RamemError);
          assert.equal(err.code, "LISTEN_FAILED");
          assert.match(err.hint ?? "", /--port/);
          return true;
        });
      } finally {
        await first.close();
      }
    });
  });
});

describe("the server's vector cache", () => {
  it("an append re-embeds nothing the server already embedded; only the new turns reach the model", async () => {
    const seen: string[] = [];
    const inner = createHashEmbedder();
    const counting: Embedder = { ...inner, embed: async (texts) => (seen.push(...texts), inner.embed(texts)) };
    const t = await startTestServer({ embedder: counting });
    try {
      const turns = [{ speaker: "Ann", text: "One." }, { speaker: "Bob", text: "Two." }, { speaker: "Ann", text: "Three." }];
      assert.equal((await t.call("PUT", "/v1/namespaces/ns/sessions/s", { json: { startTime: "2023-01-01T00:00:00Z", turns } })).status, 200);
      const afterIngest = seen.length;
      assert.equal(afterIngest, 3);
      const r = await t.call("POST", "/v1/namespaces/ns/sessions/s/turns", { json: { turns: [{ speaker: "Bob", text: "Four." }] } });
      assert.equal(r.status, 200, r.text);
      assert.equal(seen.length - afterIngest, 1, `embedded again: ${seen.slice(afterIngest).join(" | ")}`);
      assert.equal((await t.call("GET", "/v1/namespaces/ns/export")).status, 200);
      assert.equal(seen.length - afterIngest, 1, "export re-embedded cached units");
    } finally {
      await t.stop();
    }
  });
});

/** fetch cannot set Host: a raw request can, as a browser resolving a rebound name would send it. */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) } }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
