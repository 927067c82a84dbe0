import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { openMemory } from "../../../open-memory.js";
import type { Memory } from "../../../memory.js";
import type { LanguageModel } from "../../../providers/language-model.js";
import type { Principal } from "../../auth/principal.js";
import { createMcpServer } from "../create-mcp-server.js";

/** A pinned clock: turns without a time are dated here. */
export const NOW = new Date("2023-05-20T10:00:00.000Z");

/** A fresh SQLite file with the offline hash embedder and (unless given) no LLM. */
export async function withMemory(run: (memory: Memory) => Promise<void>, languageModel: LanguageModel | null = null): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-mcp-"));
  const memory = await openMemory({ db: join(dir, "test.db"), embedder: "hash", languageModel, env: {} });
  try {
    await run(memory);
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Connected {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The SDK's own client, linked in-process to a server for `principal`. */
export async function connect(memory: Memory, principal: Principal): Promise<Connected> {
  const server = createMcpServer({ memory, principal, now: () => NOW });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "ramem-test", version: "0.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Everything a namespace holds, as comparable data: what "unchanged" is checked against. */
export async function snapshot(memory: Memory, namespace: string): Promise<string> {
  const units = await memory.store.listUnits(namespace);
  const sessions = await memory.store.listSessions(namespace);
  return JSON.stringify({ units: units.map((u) => [u.id, u.content, u.context.session]).sort(), sessions: sessions.map((s) => [s.id, s.contentHash]).sort() });
}

export const CHAT = {
  sessionTime: "2023-05-08T13:56:00Z",
  turns: [
    { speaker: "Caroline", text: "I went to a LGBTQ support group yesterday and it was so powerful." },
    { speaker: "Melanie", text: "That's great! I painted a sunrise over the lake last week." },
    { speaker: "Caroline", text: "I'm researching adoption agencies for my future family." },
  ],
};
