import type { Embedder } from "../embedder.js";
import type { CompletionRequest, CompletionResult, LanguageModel } from "../language-model.js";
import { RamemError } from "../../model/errors.js";
import { checkArgs, checkFields, type ArgKind } from "../../model/check-args.js";
import { l2Normalize } from "../vector-math.js";
import { displayURL, joinURL, postJson, type FetchLike } from "./http.js";

/**
 * Clients for any server that speaks OpenAI's /embeddings and
 * /chat/completions: OpenAI itself, vLLM, Ollama, llama.cpp's server, LiteLLM
 * and similar. Plain fetch, no SDK, so the dependency surface stays zero.
 */

interface CommonOptions {
  /** e.g. "https://api.openai.com/v1" or "http://127.0.0.1:11434/v1". */
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; omit for local servers that need none. */
  apiKey?: string;
  /** Per attempt; timeouts are not retried. */
  timeoutMs?: number;
  /** Extra attempts after a 429, 5xx or network failure. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry (with jitter), capped at 8 s. */
  retryDelayMs?: number;
  /** Extra request headers, e.g. for a gateway (`OpenAI-Organization`, …). */
  headers?: Record<string, string>;
  /** Injected fetch, e.g. for tests or a proxy agent. Defaults to global fetch. */
  fetch?: FetchLike;
}

export interface OpenAICompatibleEmbedderOptions extends CommonOptions {
  /**
   * Vector size. When omitted, the factory embeds one probe text to learn it,
   * because an Embedder must know its size before its first use.
   */
  dimensions?: number;
  /** Texts per request; larger calls are split. Default 64. */
  maxBatchSize?: number;
  /**
   * Also send `dimensions` in the request body. Only for models that can
   * shorten their vectors (OpenAI text-embedding-3-*); many other servers
   * reject the unknown field. Default false.
   */
  requestDimensions?: boolean;
}

export interface OpenAICompatibleLanguageModelOptions extends CommonOptions {}

const DEFAULT_EMBED_TIMEOUT_MS = 60_000;
// Local models on CPU can take minutes for a long completion.
const DEFAULT_LLM_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_RETRY_DELAY_MS = 500;
const DEFAULT_EMBED_BATCH = 64;
const PROBE_TEXT = "dimension probe";

/** baseURL and model may be left out here (requireOption then names the variable to set), never of another type. */
const COMMON_FIELDS: Readonly<Record<string, ArgKind>> = {
  baseURL: "string?",
  model: "string?",
  apiKey: "string?",
  timeoutMs: "number?",
  maxRetries: "number?",
  retryDelayMs: "number?",
  headers: "object?",
  fetch: "function?",
};

function requireOption(value: string | undefined, name: string, kind: "LLM" | "EMBEDDINGS"): string {
  if (!value || !value.trim()) {
    throw new RamemError("PROVIDER_CONFIG", `the OpenAI-compatible ${kind === "LLM" ? "language model" : "embedder"} needs \`${name}\``, {
      hint: `set RAMEM_${kind}_${name === "baseURL" ? "BASE_URL" : "MODEL"} or pass \`${name}\``,
    });
  }
  return value.trim();
}

function badResponse(kind: "LLM" | "EMBEDDINGS", url: string, what: string): RamemError {
  return new RamemError(`${kind}_BAD_RESPONSE`, `${displayURL(url)} answered with ${what}`, {
    hint: `check that RAMEM_${kind}_BASE_URL points at an OpenAI-compatible API and that the model supports ${kind === "LLM" ? "chat completions" : "embeddings"}`,
  });
}

/** A token count from a reply, or 0 when a server leaves usage out (some do). */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

async function requestEmbeddings(
  opts: OpenAICompatibleEmbedderOptions & { baseURL: string; model: string },
  texts: readonly string[],
): Promise<Float32Array[]> {
  const body: Record<string, unknown> = { model: opts.model, input: texts, encoding_format: "float" };
  if (opts.requestDimensions && opts.dimensions !== undefined) body.dimensions = opts.dimensions;
  const reply = (await postJson({
    baseURL: opts.baseURL,
    path: "embeddings",
    body,
    apiKey: opts.apiKey,
    headers: opts.headers,
    timeoutMs: opts.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS,
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryDelayMs: opts.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    fetch: opts.fetch,
    kind: "EMBEDDINGS",
    envPrefix: "RAMEM_EMBEDDINGS_",
  })) as { data?: Array<{ embedding?: unknown; index?: unknown }> } | null;

  const url = joinURL(opts.baseURL, "embeddings");
  const data = reply?.data;
  if (!Array.isArray(data)) throw badResponse("EMBEDDINGS", url, "no `data` array");
  if (data.length !== texts.length) throw badResponse("EMBEDDINGS", url, `${data.length} embeddings for ${texts.length} inputs`);
  // The spec lets servers return items in any order; `index` is authoritative.
  const out: Float32Array[] = new Array(texts.length);
  data.forEach((item, position) => {
    const index = typeof item?.index === "number" ? item.index : position;
    if (!Array.isArray(item?.embedding)) {
      throw badResponse("EMBEDDINGS", url, "an item without a numeric `embedding` (base64 encoding is not supported)");
    }
    if (index < 0 || index >= texts.length || out[index]) throw badResponse("EMBEDDINGS", url, `a bad or repeated index ${index}`);
    out[index] = Float32Array.from(item.embedding as number[]);
  });
  return out;
}

function toUnit(v: Float32Array, url: string): Float32Array {
  l2Normalize(v);
  if (!v.some((x) => x !== 0) || v.some((x) => !Number.isFinite(x))) {
    throw badResponse("EMBEDDINGS", url, "a zero or non-finite vector");
  }
  return v;
}

/**
 * Embedder over POST {baseURL}/embeddings. Async because, without
 * `dimensions`, it asks the server once to learn the vector size. Vectors are
 * re-normalised locally: not every server returns unit vectors.
 */
export async function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Promise<Embedder> {
  checkFields("createOpenAICompatibleEmbedder", "options", options, "object", { ...COMMON_FIELDS, dimensions: "number?", maxBatchSize: "number?", requestDimensions: "boolean?" });
  const baseURL = requireOption(options.baseURL, "baseURL", "EMBEDDINGS");
  const model = requireOption(options.model, "model", "EMBEDDINGS");
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_EMBED_BATCH;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new RamemError("PROVIDER_CONFIG", `maxBatchSize must be a positive integer, got ${maxBatchSize}`);
  }
  const opts = { ...options, baseURL, model };
  const url = joinURL(baseURL, "embeddings");

  let dimensions = options.dimensions;
  if (dimensions === undefined) {
    const [probe] = await requestEmbeddings(opts, [PROBE_TEXT]);
    dimensions = probe!.length;
  }
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw badResponse("EMBEDDINGS", url, `vectors of size ${dimensions}`);
  }
  const dims = dimensions;

  return {
    specificationVersion: "v1",
    // The size is part of the id because text-embedding-3-* can be shortened,
    // and shortened vectors must not share a store with full ones.
    id: `openai-compatible:${model}:${dims}`,
    dimensions: dims,
    maxBatchSize,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += maxBatchSize) {
        // Several servers (OpenAI among them) reject empty strings outright.
        const batch = texts.slice(i, i + maxBatchSize).map((t) => (t.length === 0 ? " " : t));
        for (const v of await requestEmbeddings(opts, batch)) {
          if (v.length !== dims) {
            throw new RamemError("EMBEDDINGS_BAD_RESPONSE", `${displayURL(url)} returned a ${v.length}-d vector, expected ${dims}`, {
              hint: "the model behind this endpoint changed, or `dimensions` does not match it; vectors of different sizes cannot share a store",
            });
          }
          out.push(toUnit(v, url));
        }
      }
      return out;
    },
  };
}

/** LanguageModel over POST {baseURL}/chat/completions. */
export function createOpenAICompatibleLanguageModel(options: OpenAICompatibleLanguageModelOptions): LanguageModel {
  checkFields("createOpenAICompatibleLanguageModel", "options", options, "object", COMMON_FIELDS);
  const baseURL = requireOption(options.baseURL, "baseURL", "LLM");
  const model = requireOption(options.model, "model", "LLM");
  const url = joinURL(baseURL, "chat/completions");
  return {
    specificationVersion: "v1",
    id: `openai-compatible:${model}`,
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const body: Record<string, unknown> = { model, messages: request.messages };
      if (request.json) body.response_format = { type: "json_object" };
      if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
      if (request.temperature !== undefined) body.temperature = request.temperature;
      const reply = (await postJson({
        baseURL,
        path: "chat/completions",
        body,
        apiKey: options.apiKey,
        headers: options.headers,
        timeoutMs: options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
        retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
        fetch: options.fetch,
        kind: "LLM",
        envPrefix: "RAMEM_LLM_",
      })) as {
        choices?: Array<{ message?: { content?: unknown } }>;
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      } | null;
      const content = reply?.choices?.[0]?.message?.content;
      if (typeof content !== "string") throw badResponse("LLM", url, "no `choices[0].message.content` string");
      return {
        text: content,
        usage: { promptTokens: count(reply?.usage?.prompt_tokens), completionTokens: count(reply?.usage?.completion_tokens) },
      };
    },
  };
}

export interface ProviderEndpointConfig {
  baseURL: string;
  model: string;
  apiKey?: string;
}

export interface ProviderConfig {
  llm?: ProviderEndpointConfig;
  embeddings?: ProviderEndpointConfig;
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

function readEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function endpointFromEnv(
  env: Record<string, string | undefined>,
  prefix: "RAMEM_LLM_" | "RAMEM_EMBEDDINGS_",
): ProviderEndpointConfig | undefined {
  const baseURL = readEnv(env, `${prefix}BASE_URL`);
  const model = readEnv(env, `${prefix}MODEL`);
  const apiKey = readEnv(env, `${prefix}API_KEY`) ?? readEnv(env, "OPENAI_API_KEY");
  // The model is what opts in: an API key alone (OPENAI_API_KEY is often set
  // for unrelated tools) must not switch providers on.
  if (!model) {
    if (baseURL) {
      throw new RamemError("PROVIDER_CONFIG", `${prefix}BASE_URL is set but ${prefix}MODEL is not`, {
        where: "environment",
        hint: `set ${prefix}MODEL to a model the server at ${displayURL(baseURL)} serves, or unset ${prefix}BASE_URL`,
      });
    }
    return undefined;
  }
  const config: ProviderEndpointConfig = { baseURL: baseURL ?? OPENAI_BASE_URL, model };
  if (apiKey) config.apiKey = apiKey;
  return config;
}

/**
 * Reads provider settings from the environment. A section is present only when
 * its MODEL variable is set; BASE_URL defaults to OpenAI's. API keys fall back
 * to OPENAI_API_KEY (so it is sent to whatever BASE_URL says).
 */
export function providerConfigFromEnv(env: Record<string, string | undefined> = process.env): ProviderConfig {
  checkArgs("providerConfigFromEnv", { env: [env, "object?"] });
  const config: ProviderConfig = {};
  const llm = endpointFromEnv(env, "RAMEM_LLM_");
  const embeddings = endpointFromEnv(env, "RAMEM_EMBEDDINGS_");
  if (llm) config.llm = llm;
  if (embeddings) config.embeddings = embeddings;
  return config;
}
