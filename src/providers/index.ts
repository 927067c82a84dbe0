export type { Embedder } from "./embedder.js";
export type { ChatMessage, CompletionRequest, CompletionResult, LanguageModel } from "./language-model.js";
export { createUseLiteEmbedder, USE_LITE_ID, USE_LITE_DIMENSIONS, USE_LITE_MAX_BATCH, type UseLiteEmbedderOptions } from "./use-lite/use-lite-embedder.js";
export type { UseLiteRuntime } from "./use-lite/use-lite-chunk-runner.js";
export { createHashEmbedder, hashEmbed } from "./hash-embedder.js";
export { l2Normalize, dot } from "./vector-math.js";
export * from "./openai-compatible/index.js";
