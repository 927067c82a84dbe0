/**
 * ramem for LangChain.js (`ramem/langchain`): a retriever that returns
 * Documents carrying each memory's episodic coordinates as metadata, and a
 * chat message history kept in a ramem session. `@langchain/core` is a peer
 * dependency: this entry loads it, the main `ramem` entry does not.
 */
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import { BaseChatMessageHistory } from "@langchain/core/chat_history";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { Memory } from "../../memory.js";
import type { FilterInput } from "../../model/memory-filter.js";
import type { RecallHit } from "../../model/recall.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { TurnRole } from "../../model/conversation.js";
import { escapeStoredText } from "../../language/escape-stored-text.js";
import type { EvidenceJudgment } from "../../retrieval/judge-evidence.js";

export interface RamemRetrieverInput extends BaseRetrieverInput {
  memory: Memory;
  namespace?: string;
  /** Documents per query (default 8). */
  k?: number;
  minScore?: number;
  filter?: FilterInput;
  /** When the question is asked (ISO 8601): grounds "last year". */
  questionDate?: string;
  /** Return no documents when the recall judges that the store likely holds nothing for the query (default false: the documents carry the judgment). */
  abstain?: boolean;
}

/** What a Document's metadata holds: where and when the memory comes from, and why it was recalled. */
export interface RamemDocumentMetadata {
  unitId: string;
  namespace: string;
  sessionId: string;
  sessionStart: string;
  sessionEnd: string;
  eventTime: { start: string; end: string; granularity: string } | null;
  participants: string[];
  role: string | null;
  location: string | null;
  turnIds: string[];
  rank: number;
  /** In [0, 1], falling with rank (docs/api.md › Scores). */
  score: number;
  reasons: string[];
  /** The caller's metadata of the unit's session and turns. */
  metadata?: Record<string, unknown>;
  /** The states the unit states ("residence = porto"), and when its turn was said, when the turn carried its own time. */
  states?: NonNullable<MemoryUnit["context"]["states"]>;
  saidAt?: string;
  /** As on every face's hit: when the state held and what superseded it; a plan told later as done; a fact whose state has since changed. */
  validity?: MemoryUnit["validity"];
  planOutcome?: MemoryUnit["planOutcome"];
  mayBeOutdated?: MemoryUnit["mayBeOutdated"];
  /** The query's abstain judgment, the same on every document of one call: whether the store likely holds evidence at all. */
  holdsEvidence?: EvidenceJudgment;
  [key: string]: unknown;
}

/**
 * `pageContent` is what chains put into a prompt, so it is escaped like the
 * evidence pack (one line, nothing that reads as `<memories>`). `metadata`
 * stays as stored: it is for programs (filters, ids to pass back); a chain
 * that formats metadata into a prompt should run it through escapeStoredText.
 */
export function hitToDocument(hit: RecallHit, holdsEvidence?: EvidenceJudgment): Document<RamemDocumentMetadata> {
  const { unit } = hit;
  const c = unit.context;
  return new Document<RamemDocumentMetadata>({
    pageContent: escapeStoredText(unit.content),
    id: unit.id,
    metadata: {
      unitId: unit.id,
      namespace: unit.namespace,
      sessionId: c.session.sessionId,
      sessionStart: c.session.start,
      sessionEnd: c.session.end,
      eventTime: c.eventTime,
      participants: c.participants,
      role: c.role ?? null,
      location: c.location,
      turnIds: unit.provenance.turnIds,
      rank: hit.rank,
      score: hit.score,
      reasons: hit.reasons,
      ...(unit.metadata ? { metadata: unit.metadata } : {}),
      ...(c.states?.length ? { states: c.states } : {}),
      ...(c.saidAt ? { saidAt: c.saidAt } : {}),
      ...(unit.validity ? { validity: unit.validity } : {}),
      ...(unit.planOutcome ? { planOutcome: unit.planOutcome } : {}),
      ...(unit.mayBeOutdated ? { mayBeOutdated: unit.mayBeOutdated } : {}),
      ...(holdsEvidence ? { holdsEvidence } : {}),
    },
  });
}

/** Recall as a LangChain retriever: RaMem's ranking, one Document per memory unit. */
export class RamemRetriever extends BaseRetriever<RamemDocumentMetadata> {
  static override lc_name(): string {
    return "RamemRetriever";
  }
  override lc_namespace = ["ramem", "retrievers"];
  readonly #options: RamemRetrieverInput;

  constructor(fields: RamemRetrieverInput) {
    super(fields);
    this.#options = fields;
  }

  override async _getRelevantDocuments(query: string): Promise<Document<RamemDocumentMetadata>[]> {
    const o = this.#options;
    const { hits, holdsEvidence } = await o.memory.recall(query, {
      k: o.k ?? 8,
      ...(o.namespace ? { namespace: o.namespace } : {}),
      ...(o.minScore !== undefined ? { minScore: o.minScore } : {}),
      ...(o.filter ? { filter: o.filter } : {}),
      ...(o.questionDate ? { questionDate: o.questionDate } : {}),
    });
    if (o.abstain && !holdsEvidence.likely) return [];
    return hits.map((h) => hitToDocument(h, holdsEvidence));
  }
}

export interface RamemChatMessageHistoryInput {
  memory: Memory;
  namespace?: string;
  /** The ramem session that holds this conversation. */
  sessionId: string;
}

const ROLE_OF_TYPE: Record<string, TurnRole> = { human: "user", ai: "assistant", system: "system", tool: "tool" };

/**
 * A conversation's messages kept as a ramem session: every message added is
 * anchored and embedded (so it can be recalled later), getMessages reads the
 * session's units back in order, clear forgets the session.
 */
export class RamemChatMessageHistory extends BaseChatMessageHistory {
  override lc_namespace = ["ramem", "chat_history"];
  readonly #memory: Memory;
  readonly #namespace: { namespace?: string };
  readonly sessionId: string;

  constructor(fields: RamemChatMessageHistoryInput) {
    super(fields);
    this.#memory = fields.memory;
    this.#namespace = fields.namespace ? { namespace: fields.namespace } : {};
    this.sessionId = fields.sessionId;
  }

  async getMessages(): Promise<BaseMessage[]> {
    const units: MemoryUnit[] = [];
    for (let cursor: string | undefined; ; ) {
      const page = await this.#memory.getAll({ ...this.#namespace, filter: { sessionId: this.sessionId }, limit: 1000, ...(cursor ? { cursor } : {}) });
      units.push(...page.memories);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return units.map(toMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    const role = ROLE_OF_TYPE[message.getType()] ?? "user";
    const content = typeof message.content === "string" ? message.content : message.content.flatMap((p) => (typeof p === "object" && p !== null && "text" in p && typeof p.text === "string" ? [p.text] : [])).join("\n");
    if (!content.trim()) return;
    await this.#memory.add([{ role, content, ...(message.name ? { name: message.name } : {}) }], { ...this.#namespace, sessionId: this.sessionId });
  }

  async addUserMessage(message: string): Promise<void> {
    await this.addMessage(new HumanMessage(message));
  }

  async addAIMessage(message: string): Promise<void> {
    await this.addMessage(new AIMessage(message));
  }

  async clear(): Promise<void> {
    await this.#memory.forgetSession(this.sessionId, this.#namespace);
  }
}

/** A unit as the message it came from: the role's message type, the speaker's "name: " prefix taken off. */
function toMessage(unit: MemoryUnit): BaseMessage {
  const speaker = unit.context.participants[0] ?? "";
  const text = speaker && unit.content.startsWith(`${speaker}: `) ? unit.content.slice(speaker.length + 2) : unit.content;
  switch (unit.context.role) {
    case "assistant":
      return new AIMessage(text);
    case "system":
      return new SystemMessage(text);
    case "tool":
      return new ToolMessage({ content: text, tool_call_id: unit.provenance.turnIds[0] ?? unit.id });
    default:
      return new HumanMessage(text);
  }
}
