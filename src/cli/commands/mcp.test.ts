import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT, runCli } from "../testing/run-cli.js";
import { LOCAL_PRINCIPAL } from "../../server/auth/principal.js";
import { RamemError } from "../../model/errors.js";
import { mcpCommand, principalFor } from "./mcp.js";
import { connect, withMemory } from "../../server/mcp/testing/mcp-fixtures.js";
import { spawn } from "node:child_process";
import { openMemory } from "../../open-memory.js";

/** `ramem mcp` as an MCP client starts it: a child process speaking JSON-RPC on stdin/stdout. */
async function startMcp(args: string[]) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith("RAMEM_") && v !== undefined)) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/cli/main.ts", "mcp", ...args],
    cwd: ROOT,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "ramem-stdio-test", version: "0.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("ramem mcp (stdio)", () => {
  it("serves the tools over stdio: remember then recall, logs on stderr only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-mcp-cli-"));
    try {
      const db = join(dir, "stdio.db");
      const mcp = await startMcp(["--db", db, "--embedder", "hash"]);
      try {
        const { tools } = await mcp.client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ["ask", "forget", "recall", "remember", "update"]);
        const stored = await mcp.call("remember", {
          namespace: "agent",
          sessionTime: "2023-05-08",
          turns: [{ speaker: "Ana", text: "I moved to Lisbon last August." }, { speaker: "Ben", text: "I started learning the cello." }],
        });
        assert.equal(stored.isError, undefined, text(stored));
        const recalled = await mcp.call("recall", { namespace: "agent", query: "Where did Ana move?", k: 1 });
        const top = (recalled.structuredContent as any).memories[0];
        assert.match(top.content, /Lisbon/);
        assert.equal(top.eventTime.start, "2022-08-01T00:00:00.000Z", "'last August' grounded against the session date");
        assert.match(mcp.stderr(), /ramem mcp: serving .*stdio\.db over stdio \(all namespaces, role admin/);
      } finally {
        await mcp.client.close();
      }
      // The data outlived the process: the CLI reads the same file.
      const stats = await runCli(["stats", "--db", db, "--json"]);
      assert.equal(JSON.parse(stats.stdout).units, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--namespace confines the agent to those namespaces", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-mcp-cli-"));
    try {
      // --store (not --db) here: `ramem mcp` once dropped --store and served ./ramem.db.
      const mcp = await startMcp(["--store", join(dir, "ns.db"), "--embedder", "hash", "--namespace", "ns-a"]);
      try {
        assert.equal((await mcp.call("remember", { namespace: "ns-a", turns: [{ speaker: "Ana", text: "hello" }] })).isError, undefined);
        assert.match(mcp.stderr(), /ramem mcp: serving .*ns\.db over stdio \(namespaces ns-a, role admin/);
        const other = await mcp.call("remember", { namespace: "ns-b", turns: [{ speaker: "Ana", text: "hello" }] });
        assert.equal(other.isError, true);
        assert.match(text(other), /^FORBIDDEN/);
      } finally {
        await mcp.client.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("principalFor: local owner by default, narrowed by --namespace and --read-only, bad names refused", () => {
    assert.equal(principalFor({}), LOCAL_PRINCIPAL);
    assert.deepEqual(principalFor({ namespace: ["a", "b", "a"] }), { keyId: null, role: "admin", namespaces: ["a", "b"] });
    assert.deepEqual(principalFor({ readOnly: true }), { keyId: null, role: "read", namespaces: "all" });
    assert.throws(() => principalFor({ namespace: ["bad name"] }), (err: unknown) => err instanceof RamemError && /--namespace/.test(err.where ?? ""));
  });

  it("--help shows the MCP client configuration", async () => {
    const help = await runCli(["mcp", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /"mcpServers"[\s\S]*"command": "npx"[\s\S]*"args": \["ramem", "mcp", "--db"/);
    assert.doesNotMatch(help.stdout, /--json/, "stdout is the protocol: there is no other output to format");
  });

  it("--help names every tool the server serves", async () => {
    let served: string[] = [];
    await withMemory(async (memory) => {
      const mcp = await connect(memory, LOCAL_PRINCIPAL);
      try {
        served = (await mcp.client.listTools()).tools.map((t) => t.name);
      } finally {
        await mcp.close();
      }
    });
    assert.ok(served.length >= 5);
    // Commander wraps the description, so compare words rather than one line.
    const words = new Set(mcpCommand().helpInformation().split(/[\s,.:()]+/));
    for (const name of served) assert.ok(words.has(name), `help names the ${name} tool`);
  });

  it("--json is refused as a usage error rather than silently ignored", async () => {
    const run = await runCli(["mcp", "--json"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown option '--json'/);
  });
});

/** JSON-RPC lines written to `ramem mcp` at once, stdin closed: the responses by id, as a pipelining client sees them. */
async function pipeMcp(args: string[], lines: Array<string | Buffer>): Promise<Map<unknown, any>> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith("RAMEM_") && v !== undefined)) as Record<string, string>;
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mcp", ...args], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(Buffer.concat(lines.map((l) => (typeof l === "string" ? Buffer.from(`${l}\n`) : Buffer.concat([l, Buffer.from("\n")])))));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, stderr);
  const byId = new Map<unknown, any>();
  for (const line of stdout.split("\n").filter(Boolean)) {
    const message = JSON.parse(line);
    byId.set(message.id ?? null, message);
  }
  return byId;
}

const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const HANDSHAKE = [
  rpc(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "0" } }),
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
];

describe("ramem mcp (stdio), requests pipelined without waiting", () => {
  it("a recall sent right after a forget never returns what the forget deleted: calls to one namespace run in the order sent", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-mcp-pipe-"));
    try {
      const db = join(dir, "pipe.db");
      const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
      const rounds = 4;
      await memory.ingest(
        Array.from({ length: rounds }, (_, i) => ({
          session: { id: `s${i}`, namespace: "agent", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: ["Ana"] },
          turns: [{ id: `t${i}`, speaker: "Ana", text: `The secret harbour code is pelican${i}.` }],
        })),
      );
      await memory.close();
      const calls = Array.from({ length: rounds }, (_, i) => [
        rpc(100 + i, "tools/call", { name: "forget", arguments: { namespace: "agent", what: "session", id: `s${i}` } }),
        rpc(200 + i, "tools/call", { name: "recall", arguments: { namespace: "agent", query: "secret harbour code pelican", k: 10 } }),
      ]).flat();
      const responses = await pipeMcp(["--db", db, "--embedder", "hash"], [...HANDSHAKE, ...calls]);
      for (let i = 0; i < rounds; i++) {
        assert.equal(responses.get(100 + i)?.result?.structuredContent?.unitsDeleted, 1, JSON.stringify(responses.get(100 + i)));
        const recalled = (responses.get(200 + i)?.result?.structuredContent?.memories ?? []).map((m: { content: string }) => m.content).join(" | ");
        for (let gone = 0; gone <= i; gone++) assert.doesNotMatch(recalled, new RegExp(`pelican${gone}\\b`), `recall ${i} returned forgotten session s${gone}`);
        for (let kept = i + 1; kept < rounds; kept++) assert.match(recalled, new RegExp(`pelican${kept}\\b`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("tools/call without a name is −32602 with a readable message; a line of invalid UTF-8 is a parse error naming the byte; the server goes on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-mcp-pipe-"));
    try {
      const bad = Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remember","arguments":{"namespace":"agent","turns":[{"speaker":"Ana","text":"caf`), Buffer.from([0xe9]), Buffer.from(`"}]}}}`)]);
      const responses = await pipeMcp(["--db", join(dir, "e.db"), "--embedder", "hash"], [
        ...HANDSHAKE,
        rpc(1, "tools/call", { arguments: { namespace: "agent" } }),
        rpc(2, "tools/call", { name: "recall", arguments: "namespace=agent" }),
        bad,
        rpc(4, "tools/call", { name: "remember", arguments: { namespace: "agent", turns: [{ speaker: "Ana", text: "nul \u0000 here" }] } }),
        rpc(5, "tools/list", {}),
      ]);
      assert.deepEqual(responses.get(1)?.error, { code: -32602, message: "tools/call needs params.name, the tool to call: one of remember, recall, ask, forget, update" });
      assert.equal(responses.get(2)?.error?.code, -32602);
      assert.match(responses.get(2)?.error?.message, /params\.arguments must be an object/);
      assert.equal(responses.get(3)?.error?.code, -32700);
      const at = bad.indexOf(0xe9);
      assert.equal(responses.get(3)?.error?.message, `Parse error: stdin line 5: invalid UTF-8 at byte ${at} (line 1, column ${at + 1}: 0xE9)`);
      const nul = responses.get(4)?.result;
      assert.equal(nul?.isError, true, JSON.stringify(responses.get(4)));
      assert.match(nul.content[0].text, /contains a NUL character \(U\+0000\) at character 5;.* at turns\[0\]\.text/);
      assert.equal(responses.get(5)?.result?.tools?.length, 5, "the server goes on");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
