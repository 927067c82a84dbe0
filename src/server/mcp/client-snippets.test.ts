/**
 * docs/mcp-clients.md's config snippets work as written: each JSON block is
 * parsed, each stdio entry's command line is started by the MCP SDK's own
 * client (`npx ramem` → this checkout's CLI, so no network; the --db → a temp
 * file) and each HTTP entry is connected, with its headers, to a `ramem serve`
 * on a loopback port holding a real key. A snippet with a wrong flag, path,
 * header or top-level key fails here.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ROOT, runCli } from "../../cli/testing/run-cli.js";
import { MCP_TOOL_NAMES } from "./tool-schemas.js";

interface Entry {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}
interface Snippet {
  client: string;
  entry: Entry;
}

/** Every ```json block under a "## Client" heading, with its "ramem" server entry. */
function readSnippets(): Snippet[] {
  const doc = readFileSync(join(ROOT, "docs", "mcp-clients.md"), "utf8");
  const out: Snippet[] = [];
  let client = "";
  const blocks = /^## (.+)$|^```json\n([\s\S]*?)^```$/gm;
  for (const m of doc.matchAll(blocks)) {
    if (m[1]) {
      client = m[1].trim();
      continue;
    }
    const config = JSON.parse(m[2]!) as { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry> };
    // VS Code's file keys servers by "servers"; the others by "mcpServers".
    const servers = client.startsWith("VS Code") ? config.servers : config.mcpServers;
    assert.ok(servers?.ramem, `${client}: a block without a "ramem" entry under ${client.startsWith("VS Code") ? "servers" : "mcpServers"}`);
    out.push({ client, entry: servers.ramem });
  }
  return out;
}

const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith("RAMEM_") && v !== undefined)) as Record<string, string>;

/** The placeholders the snippets use for the key, each client's own syntax. */
function withKey(value: string, key: string): string {
  return value.replace("${env:RAMEM_API_KEY}", key).replace("${RAMEM_API_KEY}", key).replace("${input:ramem-api-key}", key);
}

async function exercise(client: Client, namespace: string): Promise<void> {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOL_NAMES].sort());
  const remembered = (await client.callTool({ name: "remember", arguments: { namespace, turns: [{ speaker: "Ann", text: "I keep bees in Porto." }] } })) as CallToolResult;
  assert.ok(!remembered.isError, JSON.stringify(remembered.content));
  const recalled = (await client.callTool({ name: "recall", arguments: { namespace, query: "Where does Ann keep bees?" } })) as CallToolResult;
  assert.ok(!recalled.isError, JSON.stringify(recalled.content));
  assert.match(JSON.stringify(recalled.content), /Porto/);
}

describe("docs/mcp-clients.md snippets", () => {
  const snippets = readSnippets();
  const stdio = snippets.filter((s) => s.entry.command);
  const http = snippets.filter((s) => s.entry.url);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "ramem-mcp-snippets-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("has a stdio snippet for each of Claude Desktop, Cursor, Claude Code and VS Code, and an HTTP one for each but Claude Desktop", () => {
    const clients = (list: Snippet[]) => [...new Set(list.map((s) => s.client.split(" ")[0] + " " + (s.client.split(" ")[1] ?? "")))].map((c) => c.trim()).sort();
    assert.deepEqual(clients(stdio), ["Claude Code", "Claude Desktop", "Cursor", "VS Code"].sort());
    assert.deepEqual(clients(http), ["Claude Code", "Cursor", "VS Code"].sort());
    assert.equal(stdio.length + http.length, snippets.length, "every block is stdio or HTTP");
  });

  for (const [i, { client, entry }] of stdio.entries()) {
    it(`stdio, ${client}: ${entry.command} ${entry.args?.join(" ")}`, async () => {
      assert.ok(entry.type === undefined || entry.type === "stdio", `type ${entry.type}`);
      assert.equal(entry.command, "npx");
      const [pkg, ...args] = entry.args ?? [];
      assert.equal(pkg, "ramem");
      const at = args.indexOf("--db");
      assert.ok(at >= 0, "the snippet names its database");
      args[at + 1] = join(dir, `stdio-${i}.db`);
      const namespace = args.includes("--namespace") ? args[args.indexOf("--namespace") + 1]! : "my-agent";
      const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "src/cli/main.ts", ...args], cwd: ROOT, env: { ...cleanEnv(), ...(entry.env ?? {}) }, stderr: "pipe" });
      let stderr = "";
      transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const mcp = new Client({ name: `snippet-${client}`, version: "0.0.0" });
      try {
        await mcp.connect(transport);
        await exercise(mcp, namespace);
      } catch (err) {
        throw new Error(`${(err as Error).message}\nstderr of ramem mcp:\n${stderr}`, { cause: err });
      } finally {
        await mcp.close();
      }
    });
  }

  describe("HTTP, against ramem serve with a key", () => {
    let server: ChildProcess;
    let base: string;
    let key: string;
    const namespace = "my-agent";
    before(async () => {
      const db = join(dir, "serve.db");
      const created = await runCli(["keys", "create", "--db", db, "--name", "snippets", "--role", "write", "--namespace", namespace, "--json"]);
      assert.equal(created.code, 0, created.stderr);
      key = (JSON.parse(created.stdout) as { secret: string }).secret;
      server = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "serve", "--db", db, "--embedder", "hash", "--port", "0", "--json"], { cwd: ROOT, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      server.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: server.stdout! }).once("line", resolve);
        server.once("exit", (code) => reject(new Error(`ramem serve exited with ${code}: ${stderr}`)));
      });
      base = (JSON.parse(line) as { url: string }).url;
    });
    after(async () => {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGTERM");
        await exited;
      }
    });

    for (const { client, entry } of http) {
      it(`${client}: ${entry.url} with its headers`, async () => {
        assert.ok(entry.type === undefined || entry.type === "http", `type ${entry.type}`);
        const url = new URL(entry.url!);
        assert.equal(url.pathname, "/mcp");
        assert.equal(url.origin, "http://127.0.0.1:8787", "the snippet points at ramem serve's default address");
        const headers = Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, withKey(v, key)]));
        assert.match(headers.Authorization ?? "", /^Bearer rm_/, "the key placeholder is one the test knows");
        const mcp = new Client({ name: `snippet-${client}`, version: "0.0.0" });
        await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers } }));
        try {
          await exercise(mcp, namespace);
        } finally {
          await mcp.close();
        }
        // The headers are what let it in: the same call without them is refused.
        const bare = new Client({ name: "no-key", version: "0.0.0" });
        await assert.rejects(bare.connect(new StreamableHTTPClientTransport(new URL("/mcp", base))), /401|Unauthorized|API key/i);
      });
    }
  });
});
