export {
  createOpenAICompatibleEmbedder,
  createOpenAICompatibleLanguageModel,
  providerConfigFromEnv,
  OPENAI_BASE_URL,
  type OpenAICompatibleEmbedderOptions,
  type OpenAICompatibleLanguageModelOptions,
  type ProviderConfig,
  type ProviderEndpointConfig,
} from "./openai-compatible.js";
export type { FetchLike } from "./http.js";
