/**
 * ramem for code written against Mem0's OSS SDK (`ramem/mem0`): a `Memory`
 * with the methods, options and result shapes of `mem0ai/oss`'s, on a ramem
 * store, offline and with no LLM call. Switch by changing the import
 * (README.md here). It does not load mem0ai: the types are restated in
 * types.ts and checked against Mem0's own in mem0-conformance.test.ts.
 */
export { Memory } from "./mem0-memory.js";
export type {
  AddMemoryOptions,
  DeleteAllMemoryOptions,
  Entity,
  GetAllMemoryOptions,
  Mem0Config,
  MemoryConfig,
  MemoryHistoryEntry,
  MemoryItem,
  Message,
  MultiModalMessages,
  ProviderSection,
  SearchFilters,
  SearchMemoryOptions,
  SearchResult,
  UpdateMemoryOptions,
} from "./types.js";
