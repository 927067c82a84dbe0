import { Memory, checkNamespace } from "./memory.js";
import { checkArgs, checkOptions, type ArgKind } from "./model/check-args.js";
import type { Embedder } from "./providers/embedder.js";
import type { LanguageModel } from "./providers/language-model.js";
import type { MemoryStore } from "./store/contract.js";
import { openSqliteStore } from "./store/sqlite/sqlite-store.js";
import { createUseLiteEmbedder, useLiteRuntimeOf } from "./providers/use-lite/use-lite-embedder.js";
import { createUseLitePool } from "./providers/use-lite/use-lite-pool.js";
import { createRuleAnchorerPool } from "./anchoring/rule-anchorer-pool.js";
import { createHashEmbedder } from "./providers/hash-embedder.js";
import {
  createOpenAICompatibleEmbedder,
  createOpenAICompatibleLanguageModel,
  providerConfigFromEnv,
} from "./providers/openai-compatible/index.js";
import { RamemError } from "./model/errors.js";
import type { Anchorer } from "./anchoring/anchorer.js";
import { createLlmAnchorer } from "./anchoring/llm-anchorer.js";
import { createRuleAnchorer } from "./anchoring/rule-anchorer.js";

import { DEFAULT_DB_PATH, EMBEDDER_NAMES, type EmbedderName } from "./open-memory-names.js";
export { DEFAULT_DB_PATH, EMBEDDER_NAMES, type EmbedderName };

export interface OpenMemoryOptions {
  /** SQLite file (default ./ramem.db). */
  db?: string;
  store?: MemoryStore;
  /** Default: "openai" when RAMEM_EMBEDDINGS_MODEL is set, else the offline "use-lite". */
  embedder?: EmbedderName | Embedder;
  languageModel?: LanguageModel | null;
  /**
   * How turns become memory units: "rule" (default, offline) or "llm" (the
   * configured language model restates each window of turns, falling back to
   * the rules per window; needs a language model), or an Anchorer of your own.
   */
  anchorer?: AnchorerName | Anchorer;
  /** With anchorer "llm": each window that fell back to the rules, as it happens. */
  onAnchorWarning?: (message: string) => void;
  defaultNamespace?: string;
  /**
   * USE-lite only: embed in this many worker threads (use-lite-pool.ts), each
   * with its own model (~120 MB). Default 1: in this thread, which is what a
   * query-at-a-time caller wants; an ingest of many turns gains up to one
   * core per thread (`ramem ingest` uses every core).
   */
  embedderThreads?: number;
  /**
   * The rule anchorer only: anchor sessions in this many worker threads
   * (rule-anchorer-pool.ts), the same units as in this thread. Default 1; an
   * ingest of many sessions with a cheap embedder gains up to one core per
   * thread (`ramem ingest` uses every core).
   */
  anchorerThreads?: number;
  env?: NodeJS.ProcessEnv;
}

/** What each option must be, checked before anything is opened (plain JavaScript callers pass anything). */
const OPEN_OPTIONS: Readonly<Record<string, ArgKind>> = {
  db: "string?",
  store: "object?",
  embedder: "string|object?",
  anchorer: "string|object?",
  onAnchorWarning: "function?",
  defaultNamespace: "string?",
  embedderThreads: "number?",
  anchorerThreads: "number?",
  env: "object?",
};

export type AnchorerName = "rule" | "llm";
export const ANCHORER_NAMES: readonly AnchorerName[] = ["rule", "llm"];

/** Opens a Memory on the embedded default (one SQLite file, offline embedder) unless told otherwise. */
export async function openMemory(options: OpenMemoryOptions = {}): Promise<Memory> {
  checkOptions("openMemory", options, OPEN_OPTIONS);
  if (options.languageModel !== null) checkArgs("openMemory", { languageModel: [options.languageModel, "object?"] });
  if (options.defaultNamespace !== undefined) checkNamespace(options.defaultNamespace);
  const env = options.env ?? process.env;
  const config = providerConfigFromEnv(env);
  const store = options.store ?? (await openSqliteStore(options.db ?? DEFAULT_DB_PATH));
  // A store already bound to an embedder keeps using it unless told otherwise: vectors of two models never mix.
  const bound = embedderNameOf((await store.stats()).embedder);
  const ownsEmbedder = typeof options.embedder !== "object";
  const embedder =
    typeof options.embedder === "object"
      ? options.embedder
      : await createEmbedder(options.embedder ?? bound ?? (config.embeddings ? "openai" : "use-lite"), env, { threads: options.embedderThreads ?? 1 });
  const languageModel =
    options.languageModel === null ? undefined : (options.languageModel ?? (config.llm ? createOpenAICompatibleLanguageModel(config.llm) : undefined));
  const anchorer =
    typeof options.anchorer === "object"
      ? options.anchorer
      : createAnchorer(options.anchorer ?? "rule", languageModel, { ...(options.onAnchorWarning ? { onWarning: options.onAnchorWarning } : {}), threads: options.anchorerThreads ?? 1 });
  return new Memory({
    store,
    embedder,
    ownsEmbedder,
    ownsAnchorer: typeof options.anchorer !== "object",
    anchorer,
    ...(languageModel ? { languageModel } : {}),
    ...(options.defaultNamespace ? { defaultNamespace: options.defaultNamespace } : {}),
  });
}

/**
 * The anchorer a name stands for (CLI `--anchorer`); "llm" needs the language
 * model it will call. `threads` > 1 runs the rule anchorer in a pool of worker
 * threads (the llm anchorer ignores it: it waits on its model, not a core).
 */
export function createAnchorer(
  name: AnchorerName,
  model: LanguageModel | undefined,
  { onWarning, threads = 1 }: { onWarning?: (message: string) => void; threads?: number } = {},
): Anchorer {
  if (name === "rule") return threads > 1 ? createRuleAnchorerPool({ threads }) : createRuleAnchorer();
  if (name !== "llm") throw new RamemError("BAD_ANCHORER", `unknown anchorer "${String(name)}"`, { hint: `use one of ${ANCHORER_NAMES.join(", ")}` });
  if (!model)
    throw new RamemError("NO_LLM", "the llm anchorer needs a language model, and none is configured", {
      hint: "set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL (and RAMEM_LLM_API_KEY if the server needs one), or use the rule anchorer",
    });
  return createLlmAnchorer({ model, ...(onWarning ? { onWarning } : {}) });
}

function embedderNameOf(id: string | null): EmbedderName | null {
  if (!id) return null;
  if (id.startsWith("use-lite@")) return "use-lite";
  if (id.startsWith("hash-bow@")) return "hash";
  if (id.startsWith("openai-compatible:")) return "openai";
  return null;
}

/**
 * The embedder a name stands for (CLI `--embedder`); "openai" needs its
 * endpoint in the environment. `threads` > 1 runs USE-lite in a pool of
 * worker threads (the other embedders ignore it: hash is cheap, openai is
 * remote).
 */
export async function createEmbedder(name: EmbedderName, env: NodeJS.ProcessEnv = process.env, options: { threads?: number } = {}): Promise<Embedder> {
  switch (name) {
    case "use-lite": {
      // RAMEM_USE_LITE_RUNTIME=tfjs: tfjs' WASM kernels instead of onnxruntime (same vectors).
      // The env passed in decides, not process.env ("" when unset: the default).
      const runtime = useLiteRuntimeOf(env.RAMEM_USE_LITE_RUNTIME ?? "");
      const runtimeOption = runtime ? { runtime } : {};
      return (options.threads ?? 1) > 1 ? createUseLitePool({ size: options.threads!, ...runtimeOption }) : createUseLiteEmbedder(runtimeOption);
    }
    case "hash":
      return createHashEmbedder();
    case "openai": {
      const config = providerConfigFromEnv(env).embeddings;
      if (!config)
        throw new RamemError("NO_EMBEDDINGS_ENDPOINT", "the openai embedder needs an endpoint", {
          hint: "set RAMEM_EMBEDDINGS_MODEL and RAMEM_EMBEDDINGS_BASE_URL (and RAMEM_EMBEDDINGS_API_KEY if the server needs one)",
        });
      return createOpenAICompatibleEmbedder(config);
    }
    default:
      throw new RamemError("BAD_EMBEDDER", `unknown embedder "${String(name)}"`, { hint: `use one of ${EMBEDDER_NAMES.join(", ")}` });
  }
}
