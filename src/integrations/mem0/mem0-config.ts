import { RamemError } from "../../model/errors.js";
import { describeValue } from "../../model/echo-value.js";
import type { Memory as RamemMemory } from "../../memory.js";

/** What the constructor keeps of a config: where the store is, and which of Mem0's parts it ignored. */
export interface ParsedConfig {
  db: string | undefined;
  memory: RamemMemory | undefined;
  /** The Mem0 parts given that change nothing here, for the one warning and for `ignoredConfig`. */
  ignored: string[];
}

/** Mem0 parts that configure machinery ramem replaces (its store, its embedder, no LLM): accepted, checked for shape, ignored. */
const PROVIDER_SECTIONS = ["embedder", "vectorStore", "llm", "reranker", "historyStore", "graphStore"] as const;
/** Mem0 parts with nothing to configure here: ramem keeps history always and writes no prompts. */
const OTHER_MEM0_KEYS: Readonly<Record<string, "string" | "boolean">> = {
  version: "string",
  enableGraph: "boolean",
  disableHistory: "boolean",
  historyDbPath: "string",
  customInstructions: "string",
};

function fail(where: string, message: string, hint: string): RamemError {
  return new RamemError("BAD_OPTION", message, { where, hint });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks `new Memory(config)` before anything opens: a config is Mem0's
 * MemoryConfig (any part may be left out) plus ramem's `db` or `memory`. A
 * key neither knows is refused (a typo would otherwise be silently
 * dropped), as is a part of the wrong type.
 */
export function parseConfig(config: unknown): ParsedConfig {
  if (config === undefined || config === null) return { db: undefined, memory: undefined, ignored: [] };
  if (!isObject(config)) throw fail("config", `the config must be an object, got ${describeValue(config)}`, "e.g. new Memory({ db: \"memories.db\" }), or new Memory() for ./ramem.db");
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (key === "db" || key === "memory") continue;
    if ((PROVIDER_SECTIONS as readonly string[]).includes(key)) {
      if (value === undefined) continue;
      if (!isObject(value) || (value.provider !== undefined && typeof value.provider !== "string") || (value.config !== undefined && !isObject(value.config))) {
        throw fail(`config.${key}`, `config.${key} must be { provider, config }, got ${describeValue(value)}`, "Mem0's shape, e.g. { provider: \"openai\", config: { model: \"...\" } }; ramem ignores it anyway");
      }
      ignored.push(key);
    } else if (key in OTHER_MEM0_KEYS) {
      if (value === undefined) continue;
      if (typeof value !== OTHER_MEM0_KEYS[key]) throw fail(`config.${key}`, `config.${key} must be a ${OTHER_MEM0_KEYS[key]}, got ${describeValue(value)}`, "as in Mem0's MemoryConfig");
      if (key !== "version" && key !== "disableHistory" && !(key === "enableGraph" && value === false)) ignored.push(key);
    } else {
      throw fail(`config.${key}`, `unknown config key ${JSON.stringify(key)}`, `Mem0's keys (${[...PROVIDER_SECTIONS, ...Object.keys(OTHER_MEM0_KEYS)].join(", ")}) are accepted, and ramem's db (a SQLite file) and memory (an open ramem Memory)`);
    }
  }
  const db = config.db;
  if (db !== undefined && (typeof db !== "string" || db === "")) throw fail("config.db", `config.db must be a SQLite file path, got ${describeValue(db)}`, 'e.g. { db: "memories.db" } or { db: ":memory:" }');
  const memory = config.memory;
  if (memory !== undefined && !(isObject(memory) && typeof memory.recall === "function" && typeof memory.add === "function" && isObject(memory.store))) {
    throw fail("config.memory", `config.memory must be a ramem Memory, got ${describeValue(memory)}`, 'open one with openMemory() from "ramem"');
  }
  if (db !== undefined && memory !== undefined) throw fail("config.db", "config gives both db and memory", "give one: db opens a SQLite file, memory uses a Memory you opened");
  return { db: db as string | undefined, memory: memory as RamemMemory | undefined, ignored };
}

/** The one warning a config with ignored parts gives: a Mem0 user who configured an LLM should learn it is not called. */
export function ignoredConfigWarning(ignored: readonly string[]): string {
  return (
    `ramem/mem0 ignores config.${ignored.join(", config.")}: ramem stores and searches with its own store and embedder and calls no LLM ` +
    `(src/integrations/mem0/README.md › Where semantics differ). Give { db } or { memory } to choose the store.`
  );
}
