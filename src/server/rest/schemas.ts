import { z } from "zod";
import { Attachment, MAX_TURN_CHARS, NamespaceName, SessionId } from "../../model/conversation.js";
import { MemoryUnit, UnitValidity } from "../../model/memory-unit.js";
import { RecallHit } from "../../model/recall.js";
import { RecallFrame } from "../../model/recall-frame.js";
import { IsoDateTime } from "../../model/time.js";
import { storedText } from "../../model/stored-text.js";
import { MetadataSchema } from "../../model/metadata.js";
import { TurnRole } from "../../model/conversation.js";
import { UnitHistoryEvent } from "../../model/unit-history.js";

/**
 * Request and response bodies of the REST API. Each reuses the library's own
 * schemas (src/model); only what the wire adds (optional turn ids, request
 * envelopes) is defined here. Request objects are strict: an unknown field is
 * a 400 naming it, not silently dropped.
 */

const Iso = IsoDateTime.meta({ description: "ISO 8601 date-time with a zone, e.g. 2023-05-08T13:56:00Z", example: "2023-05-08T13:56:00Z" });

export const NamespaceParam = z.object({
  ns: NamespaceName.meta({ param: { name: "ns", in: "path" }, example: "my-agent" }),
});
export const SessionParams = NamespaceParam.extend({
  sessionId: SessionId.meta({ param: { name: "sessionId", in: "path" }, example: "s1" }),
});
export const UnitParams = NamespaceParam.extend({
  unitId: z.string().min(1).max(200).meta({ param: { name: "unitId", in: "path" }, example: "u_3f9a1c2b4d5e6f708192" }),
});

export const TurnInput = z
  .strictObject({
    id: storedText(z.string()).min(1).max(200).optional().meta({ description: "Default: <sessionId>:<position>" }),
    speaker: storedText(z.string()).trim().min(1, "a turn needs a speaker name").max(200),
    text: storedText(z.string()).max(MAX_TURN_CHARS, `a turn may hold at most ${MAX_TURN_CHARS} characters; split long documents into several turns`).default(""),
    time: Iso.optional(),
    attachments: z.array(Attachment).max(100).optional(),
    role: TurnRole.optional().meta({ description: "The message role in a chat with an assistant; absent between people." }),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: "TurnInput" });
export type TurnInput = z.infer<typeof TurnInput>;

export const SessionInput = z
  .strictObject({
    id: storedText(z.string()).min(1).max(200).optional().meta({ description: "May be given (a native-format session pasted as is); must equal the path's sessionId." }),
    startTime: Iso,
    endTime: Iso.optional().meta({ description: "Default: startTime" }),
    participants: z.array(storedText(z.string()).trim().min(1).max(200)).max(1000).optional().meta({ description: "Default: the speakers" }),
    turns: z.array(TurnInput).min(1, "a session needs at least one turn").max(10_000),
    metadata: MetadataSchema.optional().meta({ description: "Inherited by every unit of the session." }),
  })
  .meta({ id: "SessionInput", description: "A whole session in ramem's native format; the id is in the path." });
export type SessionInput = z.infer<typeof SessionInput>;

export const AppendInput = z
  .strictObject({
    turns: z.array(TurnInput).min(1, "append at least one turn").max(1000),
    startTime: Iso.optional().meta({ description: "When the session started: dates a new session (default: its earliest turn time, else now); an earlier time widens a stored session's span." }),
    participants: z.array(storedText(z.string()).trim().min(1).max(200)).max(1000).optional(),
    metadata: MetadataSchema.optional().meta({ description: "Merged over the session's metadata; the new turns' units inherit it." }),
  })
  .meta({ id: "AppendInput" });

const FilterJson = z
  .record(z.string(), z.unknown())
  .meta({
    description:
      'Filter (the library\'s language): {"metadata.project": "apollo"}, {"metadata.priority": {"gte": 2}}, {"time": {"gte": "2023-05-01T00:00:00Z"}}, {"AND": [...]}, {"OR": [...]}, {"NOT": {...}}; fields sessionId, participant, role, time, createdAt, updatedAt, metadata.<key>',
  });

export const MessageInput = z
  .strictObject({
    role: TurnRole,
    content: z.union([z.string(), z.array(z.record(z.string(), z.unknown())).max(100)]),
    name: storedText(z.string()).trim().min(1).max(200).optional(),
    createdAt: Iso.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: "MessageInput", description: "A chat message as agent frameworks pass it; content a string or parts ({type: \"text\", text})." });

export const AddInput = z
  .strictObject({
    messages: z.array(MessageInput).min(1, "give at least one message").max(1000),
    sessionId: SessionId.optional().meta({ description: "Default: the latest session unless idle for the server's idle time, else a new one." }),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: "AddInput" });

export const AddResult = z
  .object({
    namespace: z.string(),
    sessionId: z.string(),
    sessionChoice: z.enum(["given", "continued", "new"]),
    created: z.boolean(),
    turnIds: z.array(z.string()),
    unitIds: z.array(z.string()),
  })
  .meta({ id: "AddResult" });

export const UpdateInput = z.strictObject({ text: storedText(z.string()).trim().min(1, "text is empty").max(MAX_TURN_CHARS) }).meta({ id: "UpdateInput" });

export const SupersessionInput = z
  .strictObject({
    supersededBy: storedText(z.string()).min(1).max(200).nullable().describe("The unit that replaced this one, or null: this one is not superseded, whatever the rules derive."),
  })
  .meta({ id: "SupersessionInput" });

export const ValidityResult = z
  .object({
    namespace: z.string(),
    unitId: z.string(),
    validity: UnitValidity.nullable().describe("null: the unit states no state and carries no correction"),
  })
  .meta({ id: "Validity" });

export const HistoryResult = z
  .object({ namespace: z.string(), unitId: z.string(), events: z.array(UnitHistoryEvent.meta({ id: "UnitHistoryEvent" })) })
  .meta({ id: "UnitHistory" });
export type AppendInput = z.infer<typeof AppendInput>;

export const IngestResult = z
  .object({
    namespace: z.string(),
    sessionId: z.string(),
    created: z.boolean(),
    unchanged: z.boolean(),
    turns: z.number().int(),
    turnIds: z.array(z.string()),
    unitsWritten: z.number().int(),
    warnings: z.array(z.string()),
  })
  .meta({ id: "IngestResult" });

const LlmFrameFlag = z
  .boolean()
  .default(false)
  .meta({ description: "Let the server's LLM ground what the rules could not before recalling (one more call); 400 NO_LLM when the server has none." });

export const RecallInput = z
  .strictObject({
    query: z.string().trim().min(1, "the query is empty").max(4000),
    k: z.number().int().min(1).max(100).default(10),
    questionDate: Iso.optional().meta({ description: "When the question is asked; grounds 'last year'." }),
    validAt: Iso.optional().meta({ description: "The instant whose state you want: statements valid then rank first, the others (not yet or no longer valid) last, each hit saying why." }),
    contentOnly: z.boolean().default(false).meta({ description: "Skip the recall frame: the plain content ranking." }),
    llmFrame: LlmFrameFlag,
    filter: FilterJson.optional(),
    minScore: z.number().min(0).max(1).optional().meta({ description: "Drop hits scoring below this; scores are in [0, 1] and fall with rank." }),
  })
  .meta({ id: "RecallInput" });

export const HoldsEvidence = z
  .object({
    likely: z.boolean().meta({ description: "true: the store likely holds evidence for the query; false: it likely holds nothing that answers it (abstain)" }),
    confidence: z.number().min(0.5).max(1).meta({ description: "How sure the judgment is of `likely`" }),
    why: z.string().meta({ description: "What no stored memory covers, and the closest memory (a sentence for a reader; stored text in it is escaped)" }),
  })
  .meta({ id: "HoldsEvidence", description: "Whether the store likely holds evidence for the query at all, read from what the query asks that no candidate covers (docs/api.md › Recall hits)" });

export const RecallResult = z
  .object({
    namespace: z.string(),
    query: z.string(),
    frame: RecallFrame.meta({ id: "RecallFrame" }).nullable(),
    frameRefinement: z
      .object({
        added: z.array(z.enum(["time", "participants", "location"])),
        usage: z.object({ calls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int() }),
        warning: z.string().optional(),
      })
      .optional()
      .meta({ description: "Present when llmFrame was asked: what the LLM added, its tokens, a warning when it failed." }),
    holdsEvidence: HoldsEvidence,
    hits: z.array(RecallHit.meta({ id: "RecallHit" })),
  })
  .meta({ id: "RecallResult" });

export const AskInput = z
  .strictObject({
    question: z.string().trim().min(1, "the question is empty").max(4000),
    k: z.number().int().min(1).max(100).default(10),
    maxTokens: z.number().int().min(50).max(100_000).default(1500),
    questionDate: Iso.optional(),
    llmFrame: LlmFrameFlag,
    abstain: z
      .boolean()
      .default(true)
      .meta({ description: "Answer \"I don't have that in memory.\" without a model call when holdsEvidence.likely is false; false asks the model anyway" }),
  })
  .meta({ id: "AskInput" });

export const AskResult = z
  .object({
    namespace: z.string(),
    question: z.string(),
    answer: z
      .string()
      .nullable()
      .meta({ description: "\"I don't have that in memory.\" when ask abstained; otherwise null when the server has no LLM configured: use evidence.text with your own model." }),
    abstained: z.boolean().meta({ description: "true: the store likely holds nothing for the question (holdsEvidence), so no model was asked" }),
    holdsEvidence: HoldsEvidence,
    llmConfigured: z.boolean(),
    note: z.string().optional(),
    cited: z.array(z.object({ rank: z.number().int(), unitId: z.string(), turnIds: z.array(z.string()) })),
    evidence: z.object({ text: z.string(), tokens: z.number().int(), unitIds: z.array(z.string()), dropped: z.number().int() }),
    hits: z.array(RecallHit),
  })
  .meta({ id: "AskResult" });

export const ListQuery = z.strictObject({
  session: z.string().min(1).max(200).optional(),
  participant: z.string().min(1).max(200).optional(),
  from: Iso.optional().meta({ description: "Sessions whose span overlaps [from, to)" }),
  to: Iso.optional(),
  filter: z.string().max(16_000).optional().meta({ description: "A filter as JSON (the language of recall's filter), URL-encoded" }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0).meta({ description: "Units to skip (kept for older clients); cursor is the way to page. Not with cursor" }),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "The nextCursor of the previous page (the library's getAll takes the same cursors); leave it out for the first page. Not with offset" }),
  validity: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "true: each unit that states a state carries its derived validity (valid from/to, what superseded it), as recall hits do" }),
});

export const MemoryList = z
  .object({
    namespace: z.string(),
    memories: z.array(MemoryUnit.meta({ id: "MemoryUnit" })),
    total: z.number().int().meta({ description: "Units the filters select, on every page" }),
    limit: z.number().int(),
    offset: z.number().int().meta({ description: "Units skipped before this page (from offset or cursor)" }),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last page" }),
  })
  .meta({ id: "MemoryList" });

export const StoredSessionOut = z
  .object({
    id: z.string(),
    namespace: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    participants: z.array(z.string()),
    unitCount: z.number().int(),
  })
  .meta({ id: "StoredSession" });

export const Deleted = z.object({ deleted: z.number().int().meta({ description: "How many units were deleted." }) }).meta({ id: "Deleted" });

export const Stats = z
  .object({
    namespace: z.string(),
    sessions: z.number().int(),
    units: z.number().int(),
    embedder: z.string().nullable(),
    dimensions: z.number().int().nullable(),
    range: z.object({ start: z.string(), end: z.string() }).nullable(),
  })
  .meta({ id: "NamespaceStats" });

export const ImportResult = z.object({ namespace: z.string(), sessions: z.number().int(), units: z.number().int() }).meta({ id: "ImportResult" });

export const WhoAmI = z
  .object({
    role: z.enum(["read", "write", "admin"]),
    namespaces: z.union([z.literal("all"), z.array(z.string())]).meta({ description: '"all" only for the local principal of an open server' }),
    keyName: z.string().nullable(),
    open: z.boolean().meta({ description: "True when the server answered without a key (open mode on loopback)" }),
  })
  .meta({ id: "WhoAmI" });

export const ExplainInput = RecallInput.pick({ query: true, k: true, questionDate: true, validAt: true })
  .extend({ maxTokens: z.number().int().min(50).max(100_000).default(1500).meta({ description: "Token budget of the evidence pack, as ask uses it" }) })
  .meta({ id: "ExplainInput" });

export const FrameConditionExplained = z
  .object({
    name: z.enum(["time", "participants", "location", "entities", "role", "occurrence"]),
    value: z.string().meta({ description: "What the condition asks for, for humans (a window, names, a role)" }),
    evidence: z.string(),
    confidence: z.number(),
    note: z.string(),
    active: z.boolean(),
    why: z.string().meta({ description: "Why it is or is not used to rank" }),
  })
  .meta({ id: "FrameConditionExplained" });

export const ExplainResult = z
  .object({
    namespace: z.string(),
    query: z.string(),
    questionDate: z.string().nullable(),
    validAt: z.string().nullable().meta({ description: "The instant whose state was asked for (validAt of the request), or null" }),
    frame: RecallFrame.nullable(),
    conditions: z.array(FrameConditionExplained),
    cues: z.array(z.string()).meta({ description: "What the frame read that is no condition (answer kind, aggregation, current state), and its notes" }),
    contextValidIds: z.array(z.string()).meta({ description: "The hits in C_ctx (ranked first for their context); the other hits are C_content" }),
    holdsEvidence: HoldsEvidence,
    scoreScales: z.string().meta({ description: "How to read the scores of the two rankings side by side" }),
    hits: z.array(RecallHit),
    contentOnly: z.array(RecallHit).meta({ description: "The same query ranked on content alone (no frame), for comparison" }),
    evidence: z.object({ text: z.string(), tokens: z.number().int(), unitIds: z.array(z.string()), dropped: z.number().int() }),
    tookMs: z.number(),
  })
  .meta({ id: "ExplainResult" });

export const BenchResultsList = z
  .object({ files: z.array(z.object({ id: z.number().int(), path: z.string() })).meta({ description: "The files the server was started with (ramem serve --bench-results)" }) })
  .meta({ id: "BenchResultsList" });

export const BenchResultsParam = z.object({ id: z.coerce.number().int().min(0).meta({ param: { name: "id", in: "path" }, example: 0 }) });
