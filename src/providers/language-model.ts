/**
 * LanguageModel contract, version 1: chat completion, optionally asking for a
 * JSON object. Used for optional anchoring and answers; never needed to store
 * or recall.
 */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Ask the model for a single JSON object (OpenAI `response_format: json_object`). */
  json?: boolean;
  maxTokens?: number;
  temperature?: number;
}

export interface CompletionResult {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
}

export interface LanguageModel {
  readonly specificationVersion: "v1";
  readonly id: string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
}
