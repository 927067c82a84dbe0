// The public API of ramem. Contracts (interfaces) and their default
// implementations are exported separately so users can plug in their own.
export * from "./model/index.js";
export type { Embedder } from "./providers/embedder.js";
export type { LanguageModel, ChatMessage, CompletionRequest, CompletionResult } from "./providers/language-model.js";
export type {
  MemoryStore,
  UnitRecord,
  SessionRecords,
  ScoredUnitId,
  StoredSession,
  UnitFilter,
  StoreStats,
  ScrubOptions,
  ScrubReport,
  SearchOptions,
  ReplaceSessionOptions,
  AppendUnitsOptions,
  UpdateUnitsOptions,
  WriteOptions,
} from "./store/contract.js";
export type { Anchorer, AnchorResult } from "./anchoring/anchorer.js";

export {
  Memory,
  checkNamespace,
  type MemoryOptions,
  type RecallOptions,
  type ForgetOptions,
  type AddOptions,
  type AddReport,
  type ActorOptions,
  type GetAllOptions,
  type GetAllResult,
} from "./memory.js";
export type { MemoryEvents } from "./memory-events.js";
export { messagesToTurns, DEFAULT_SPEAKER_NAMES, type AgentMessage, type SpeakerMessage, type AddMessage, type MessagePart, type SpeakerNames } from "./formats/messages-to-turns.js";
export { finalScores, CONTENT_SCORE_WEIGHTS, SCORE_WEIGHTS, type ScoreFeatures } from "./retrieval/final-score.js";
export { updateUnit } from "./anchoring/update-unit.js";
export { openMemory, type OpenMemoryOptions, type EmbedderName } from "./open-memory.js";
export { createRuleAnchorer, RULE_ANCHORER_ID } from "./anchoring/rule-anchorer.js";
export { ingestSessions, type IngestReport, type IngestProgress } from "./anchoring/ingest-sessions.js";
export { appendTurns, type AppendTurnsRequest, type AppendTurnsReport } from "./anchoring/append-turns.js";
export { sessionFromTurns, type TurnInput, type SessionTurnsRequest } from "./anchoring/session-from-turns.js";
export { forgetUnit } from "./anchoring/forget-unit.js";
export { exportNamespace } from "./portability/export-namespace.js";
export { importNamespace, type ImportReport } from "./portability/import-namespace.js";
export { KeyedLock } from "./util/keyed-lock.js";
export { contentRecall, DEFAULT_FUSION, type ContentCandidate, type FusionWeights } from "./retrieval/content-recall.js";
export { openSqliteStore, isSqliteMemoryStore, type SqliteMemoryStore, type BuildDenseIndexesOptions } from "./store/sqlite/sqlite-store.js";
export type { SqliteDenseIndexReport } from "./store/sqlite/dense-index-report.js";
export { openPostgresStore, type PostgresStoreOptions } from "./store/postgres/postgres-store.js";
export type { DenseIndexBuildOptions, DenseIndexReport } from "./store/postgres/dense-index-report.js";
export { openStore, isPostgresUrl } from "./store/open-store.js";
export { createUseLiteEmbedder, type UseLiteEmbedderOptions } from "./providers/use-lite/use-lite-embedder.js";
export type { UseLiteRuntime } from "./providers/use-lite/use-lite-chunk-runner.js";
export { createHashEmbedder } from "./providers/hash-embedder.js";
export {
  createOpenAICompatibleEmbedder,
  createOpenAICompatibleLanguageModel,
  providerConfigFromEnv,
} from "./providers/openai-compatible/index.js";
export { groundTimeExpression, groundTimeExpressions } from "./language/time-grounding.js";
export { extractEntities } from "./language/entities.js";
export { readConversationFile, type ConversationInput, type FormatName } from "./formats/conversation-file.js";
export { runRecall, CONTENT_ONLY, RAMEM, type RecallSwitches, type RecallRequest, type RecallOutcome, type RecallStageTimes } from "./retrieval/recall-pipeline.js";
export { reinstate } from "./retrieval/reinstate.js";
export { induceFrame, type InductionContext } from "./induction/induce-frame.js";
export { renderEvidence, EVIDENCE_OPEN, EVIDENCE_CLOSE, type EvidencePack } from "./synthesis/render-evidence.js";
export { escapeStoredText } from "./language/escape-stored-text.js";
export { answerFromEvidence } from "./synthesis/answer.js";
export { askMemory, type AskResult } from "./synthesis/ask.js";
export { createLlmAnchorer } from "./anchoring/llm-anchorer.js";
