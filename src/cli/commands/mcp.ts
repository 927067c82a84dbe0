import { Command } from "commander";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { addStoreOptions, collectList, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { createMcpServer } from "../../server/mcp/create-mcp-server.js";
import { LOCAL_PRINCIPAL, type Principal } from "../../server/auth/principal.js";
import { checkNamespace } from "../../formats/shared.js";
import { guardToolCalls } from "../../server/mcp/guard-tool-calls.js";
import { utf8LinesOnly } from "../utf8-lines.js";
import { cliErr } from "../io.js";
import { MCP_TOOL_NAMES } from "../../server/mcp/tool-schemas.js";

interface McpCliOptions extends Omit<CommonOptions, "namespace"> {
  namespace?: string[];
  readOnly?: boolean;
}

const CLIENT_CONFIG = `{
    "mcpServers": {
      "ramem": {
        "command": "npx",
        "args": ["ramem", "mcp", "--db", "/path/to/ramem.db"]
      }
    }
  }`;

/**
 * `ramem mcp`: the MCP tools over stdio, for an agent that starts ramem as a
 * subprocess. The local user already owns the database file, so by default the
 * caller is the local principal (every namespace, admin); --namespace and
 * --read-only narrow that, e.g. to give one agent one namespace.
 */
export function mcpCommand(): Command {
  return addStoreOptions(
    new Command("mcp")
      .description(
        // The names come from the list the server is tested against, so the help cannot fall behind a new tool.
        `Serve memory to an MCP client over stdio: tools ${andList(MCP_TOOL_NAMES)}. stdout carries the protocol; logs go to stderr. ` +
          "(Over HTTP, with API keys, the same tools are at /mcp of `ramem serve`.)",
      )
      .option("--namespace <ns>", "only allow these namespaces (repeat the option or separate with commas); default: all", collectList)
      .option("--read-only", "only allow recall and ask (no remember, no forget)"),
    { json: false },
  )
    .addHelpText(
      "after",
      `
MCP client configuration (Claude Desktop, Cursor, ... ; "mcpServers" in their JSON config):
  ${CLIENT_CONFIG}

  Add "--namespace", "my-agent" to the args to confine the agent to one namespace.
  Set RAMEM_LLM_MODEL / RAMEM_LLM_BASE_URL in "env" to let the ask tool answer; without them ask returns the evidence.`,
    )
    .action(async (opts: McpCliOptions) =>
      runAction(false, async () => {
        // stdout is the protocol: anything a dependency prints there would corrupt it.
        console.log = console.info = console.debug = console.error;
        const principal = principalFor(opts);
        const memory = await openFromOptions({ db: opts.db, store: opts.store, ...(opts.embedder ? { embedder: opts.embedder } : {}) });
        const server = createMcpServer({ memory, principal });
        // A line that is not UTF-8 is answered here (a parse error naming its first bad byte) and never reaches the tools.
        const input = utf8LinesOnly(process.stdin, (err, id) =>
          void transport.send({ jsonrpc: "2.0", ...(id !== null ? { id } : {}), error: { code: -32700, message: `Parse error: ${err.where}: ${err.message}` } }),
        );
        const transport = new StdioServerTransport(input, process.stdout);
        let closing: Promise<void> | undefined;
        const shutdown = () =>
          (closing ??= (async () => {
            await server.close().catch(() => undefined);
            await memory.close();
          })());
        // A client that writes its requests and then closes stdin (a script, a pipe) still gets
        // every answer: on end of input, shut down once no request is waiting for its response.
        const pending = new Set<string | number>();
        let inputEnded = false;
        input.once("end", () => {
          inputEnded = true;
          if (pending.size === 0) void shutdown();
        });
        process.once("SIGTERM", () => void shutdown().then(() => process.exit(0)));
        process.once("SIGINT", () => void shutdown().then(() => process.exit(0)));
        await server.connect(transport);
        // A client may pipeline calls: those to one namespace run in the order sent (a recall after a forget sees the forget).
        guardToolCalls(transport, { serializeByNamespace: true });
        const receive = transport.onmessage;
        transport.onmessage = (message) => {
          if ("method" in message && "id" in message) pending.add(message.id);
          receive?.(message);
        };
        const send = transport.send.bind(transport);
        transport.send = async (message) => {
          await send(message);
          if (!("method" in message) && "id" in message && message.id !== undefined) {
            pending.delete(message.id);
            if (inputEnded && pending.size === 0) void shutdown();
          }
        };
        const scope = principal.namespaces === "all" ? "all namespaces" : `namespaces ${principal.namespaces.join(", ")}`;
        cliErr(`ramem mcp: serving ${memory.store.location} over stdio (${scope}, role ${principal.role}; LLM ${memory.languageModel ? "configured" : "not configured"})\n`);
      }),
    );
}

/** "a, b and c", as the help sentence reads. */
function andList(names: readonly string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function principalFor(opts: { namespace?: readonly string[] | undefined; readOnly?: boolean | undefined }): Principal {
  const namespaces = (opts.namespace ?? []).map((ns) => checkNamespace(ns, "--namespace"));
  if (namespaces.length === 0 && !opts.readOnly) return LOCAL_PRINCIPAL;
  return { keyId: null, role: opts.readOnly ? "read" : "admin", namespaces: namespaces.length ? [...new Set(namespaces)] : "all" };
}
