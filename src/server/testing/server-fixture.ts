import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openMemory } from "../../open-memory.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import type { Embedder } from "../../providers/embedder.js";
import type { LanguageModel } from "../../providers/language-model.js";
import type { Memory } from "../../memory.js";
import { openApiKeyStore } from "../../store/open-api-key-store.js";
import type { ApiKeyStore, Role } from "../../store/api-key-contract.js";
import { createApiKey } from "../auth/create-api-key.js";
import { startServer, type RunningServer, type StartServerOptions } from "../serve.js";

/** A real server on a loopback port, over a temp SQLite file, with the offline hash embedder. */
export interface TestServer {
  server: RunningServer;
  /** Secrets of the keys asked for in startTestServer, in order. */
  secrets: string[];
  memory: Memory;
  keys: ApiKeyStore;
  db: string;
  dir: string;
  /** fetch against the server; `key` adds the Bearer header. */
  call(method: string, path: string, opts?: { key?: string; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> }): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  createKey(role: Role, namespaces: string[], name?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The hash embedder, answering after a real wait (a timer, like a remote or
 * WASM model): without one, a write never yields to another request between
 * reading a session and writing it back, and a missing lock would go unseen.
 */
export function slowHashEmbedder(delayMs: number): Embedder {
  const inner = createHashEmbedder();
  return { ...inner, embed: async (texts) => (await sleep(delayMs), inner.embed(texts)) };
}

export async function startTestServer(
  options: { keys?: Array<{ role: Role; namespaces: string[] }>; server?: Partial<StartServerOptions>; embedDelayMs?: number; languageModel?: LanguageModel; embedder?: Embedder } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-server-"));
  const db = join(dir, "test.db");
  const memory = await openMemory({ db, embedder: options.embedder ?? (options.embedDelayMs ? slowHashEmbedder(options.embedDelayMs) : "hash"), languageModel: options.languageModel ?? null, env: {} });
  const keys = await openApiKeyStore(db);
  const secrets: string[] = [];
  for (const k of options.keys ?? []) secrets.push((await createApiKey(keys, { name: "test", role: k.role, namespaces: k.namespaces })).secret);
  const server = await startServer({ memory, keys, host: "127.0.0.1", port: 0, warn: () => {}, ...options.server });
  return {
    server,
    memory,
    keys,
    db,
    dir,
    secrets,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | Uint8Array | undefined = opts.body;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers["content-type"] ??= "application/json";
      }
      const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
    async createKey(role, namespaces, name = "test") {
      return (await createApiKey(keys, { name, role, namespaces })).secret;
    },
    async stop() {
      await server.close();
      await keys.close();
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function session(startTime: string, turns: Array<[speaker: string, text: string]>, extra: Record<string, unknown> = {}) {
  return { startTime, turns: turns.map(([speaker, text]) => ({ speaker, text })), ...extra };
}

export const GARDEN = session("2023-05-08T13:56:00Z", [
  ["Caroline", "I went to a LGBTQ support group yesterday and it was powerful."],
  ["Melanie", "I painted a sunrise over the lake last week."],
  ["Caroline", "My grandmother gave me a silver necklace from Sweden."],
]);

export const CHESS = session("2023-06-10T09:00:00Z", [
  ["Bob", "I lost the chess tournament final to Alice on Saturday."],
  ["Alice", "Next year I will play the Sicilian defence again."],
]);
