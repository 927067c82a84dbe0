/**
 * The names openMemory and the CLI share, in a module that imports nothing:
 * the CLI's option parsing and store-location reading need them, and
 * importing open-memory.ts for them would load every embedder, the anchorer
 * and its language models into commands that open only the store (`ramem
 * stats`, `ramem keys`).
 */
export type EmbedderName = "use-lite" | "hash" | "openai";
export const EMBEDDER_NAMES: readonly EmbedderName[] = ["use-lite", "hash", "openai"];
export const DEFAULT_DB_PATH = "ramem.db";
