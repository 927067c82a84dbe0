/**
 * Mem0's OSS types (`mem0ai/oss` 3.3.1, dist/oss/index.d.ts), restated here
 * rather than imported: the adapter must not need mem0ai at run time, and
 * ramem's published .d.ts must not name a package its users may not have.
 * mem0-conformance.test.ts assigns these to Mem0's own types both ways, so a
 * drift fails there.
 *
 * `any` where Mem0 says `any`: code written against Mem0 (`r.metadata.category.toUpperCase()`)
 * must compile unchanged once the import is switched.
 */
import type { Memory as RamemMemory } from "../../memory.js";

export interface MultiModalMessages {
  type: "image_url";
  image_url: { url: string };
}

export interface Message {
  role: string;
  content: string | MultiModalMessages;
}

export interface Entity {
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface SearchFilters {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  [key: string]: any;
}

export interface AddMemoryOptions extends Entity {
  metadata?: Record<string, any>;
  filters?: SearchFilters;
  /** Accepted; ramem stores each message as a memory either way (README › Where semantics differ). */
  infer?: boolean;
  /** When the messages were said: Unix seconds, an ISO 8601 string or a Date (Mem0's OSS refuses it; ramem honours it). */
  timestamp?: number | string | Date | null;
  /** Refused: ramem memories do not expire. */
  expirationDate?: string | null;
}

export interface UpdateMemoryOptions {
  text?: string;
  /** @deprecated Mem0's old name of `text`. */
  data?: string;
  /** Refused: ramem keeps the metadata a memory was added with. */
  metadata?: Record<string, any>;
  /** Refused: ramem memories do not expire. */
  expirationDate?: string | null;
}

/** Mem0 2.x and Mem0's Node quickstart scope a search by top-level ids and `limit`; 3.x by `filters` and `topK`. Both are read. */
interface LegacyScope extends Entity {
  /** Mem0 2.x's name of `topK`. */
  limit?: number;
}

export interface SearchMemoryOptions extends LegacyScope {
  topK?: number;
  filters?: SearchFilters;
  /** Drops hits scoring below it (ramem's scores, in [0, 1]); default: none. */
  threshold?: number;
  /** Adds `score_details` (ramem's reasons for each hit). */
  explain?: boolean;
  /** When the question is asked: grounds "last month" (ramem's questionDate). */
  referenceDate?: number | string | Date | null;
  /** Accepted, no effect: ramem's recall ranks in one pass. */
  rerank?: boolean;
  /** Accepted, no effect: nothing expires. */
  showExpired?: boolean;
}

export interface GetAllMemoryOptions extends LegacyScope {
  topK?: number;
  filters?: SearchFilters;
  /** Accepted, no effect: nothing expires. */
  showExpired?: boolean;
}

export interface DeleteAllMemoryOptions extends Entity {}

/** A memory as Mem0 returns it: MemoryItem plus the entity ids Mem0's runtime spreads in (snake_case) and its Node docs show (camelCase). */
export interface MemoryItem {
  id: string;
  memory: string;
  hash?: string;
  createdAt?: string;
  updatedAt?: string;
  score?: number;
  rerankScore?: number;
  metadata?: Record<string, any>;
  attributedTo?: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  userId?: string;
  agentId?: string;
  runId?: string;
  /** add's answers: Mem0 puts the event in `metadata.event`; Mem0's platform at the top level. Both are given. */
  event?: "ADD";
  /** search with `explain: true`. */
  score_details?: { rank: number; reasons: string[] };
}

export interface SearchResult {
  results: MemoryItem[];
}

/**
 * One entry of history(): the columns Mem0's history stores return
 * (snake_case), with the camelCase names its types and docs use beside them.
 */
export interface MemoryHistoryEntry {
  id: string;
  memory_id: string;
  previous_value: string | null;
  new_value: string | null;
  action: "ADD" | "UPDATE" | "DELETE";
  created_at: string | null;
  updated_at: string | null;
  is_deleted: 0 | 1;
  memoryId: string;
  previousValue: string | null;
  newValue: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  isDeleted: 0 | 1;
}

/** A provider section of Mem0's config: accepted and ignored (ramem has its own store and embedder, and calls no LLM). */
export interface ProviderSection {
  provider?: string;
  config?: Record<string, any>;
}

/**
 * Mem0's MemoryConfig (every part optional, as `new Memory(config?)` takes
 * it), plus ramem's own two: where the store is.
 */
export interface Mem0Config {
  version?: string;
  embedder?: ProviderSection;
  vectorStore?: ProviderSection;
  llm?: ProviderSection;
  reranker?: ProviderSection;
  historyStore?: ProviderSection;
  graphStore?: ProviderSection;
  enableGraph?: boolean;
  disableHistory?: boolean;
  historyDbPath?: string;
  customInstructions?: string;
  /** ramem: the SQLite file to open (default $RAMEM_DB, else ./ramem.db, as the CLI). */
  db?: string;
  /** ramem: an open Memory to use instead (any store, any embedder); not closed by close(). */
  memory?: RamemMemory;
}

/** Mem0's name for its config type. */
export type MemoryConfig = Mem0Config;
