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
import { principalFor } from "./mcp.js";

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
        assert.deepEqual(tools.map((t) => t.name).sort(), ["ask", "forget", "recall", "remember"]);
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

  it("--json is refused as a usage error rather than silently ignored", async () => {
    const run = await runCli(["mcp", "--json"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown option '--json'/);
  });
});
