import { z } from "zod";
import { MAX_TURN_CHARS, NamespaceName, SessionId } from "../../model/conversation.js";
import { storedText } from "../../model/stored-text.js";
import { MetadataSchema } from "../../model/metadata.js";

/**
 * Input and output schemas of the MCP tools, version 1. Descriptions are what
 * an agent reads in `tools/list`, so they say what to pass, not how it is
 * implemented. Dates are validated again (with the readers' precise messages)
 * by the tools themselves; the schema only says they are strings.
 */

export const MAX_TURNS_PER_CALL = 500;
/** The tools, in the order tools/list gives them. */
export const MCP_TOOL_NAMES = ["remember", "recall", "ask", "forget", "update"] as const;
export const MAX_RECALL_K = 100;

const namespace = NamespaceName.describe(
  'The memory namespace (tenant) to use, e.g. "my-agent" or "user-42": letters, digits and . _ : -, starting with a letter or digit.',
);
const date = (what: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .describe(`${what}. ISO 8601 ("2023-05-08T13:56:00Z", "2023-05-08") or an absolute English date ("8 May 2023"); times without a zone are UTC.`);

export const RememberTurn = z.object({
  speaker: storedText(z.string()).trim().min(1, "a turn needs a speaker name").max(200).describe('Who said it, e.g. "Caroline" or "user".'),
  text: storedText(z.string())
    .max(MAX_TURN_CHARS, `a turn may hold at most ${MAX_TURN_CHARS} characters; split a long text into several turns (one per message or paragraph)`)
    .describe(`What was said (one message; at most ${MAX_TURN_CHARS} characters). May be empty only when an attachment is given.`),
  time: date("When it was said; default: now, or the session time when sessionTime is given").optional(),
  attachments: z
    .array(
      z.object({
        kind: z.enum(["image", "file", "link"]),
        caption: storedText(z.string()).min(1).max(MAX_TURN_CHARS).describe("What it shows or is (image caption, alt text, file name): this is what memory keeps."),
        url: storedText(z.string()).max(2000).optional(),
      }),
    )
    .max(20)
    .optional()
    .describe("Images, files or links shared in the turn."),
  id: storedText(z.string()).min(1).max(200).optional().describe('Turn id, unique in its session; default "<sessionId>:<n>" numbering on from the turns already stored.'),
});

export const rememberInput = {
  namespace,
  turns: z.array(RememberTurn).min(1, "give at least one turn").max(MAX_TURNS_PER_CALL).describe("The turns to remember, in conversation order."),
  sessionId: SessionId.optional()
    .describe(
      "The conversation (session) these turns belong to. Omitted: a new session is created and its id returned; pass that id on later calls to add to the same conversation. The id of a stored session: the turns are appended to it. Any other id: a session with that id is created.",
    ),
  sessionTime: date("When the session started; default: the earliest turn time (or now)").optional(),
  participants: z.array(storedText(z.string()).trim().min(1).max(200)).max(100).optional().describe("Everyone in the conversation; default: the speakers."),
  // MetadataSchema checks the value as sent: a plain z.record would drop a "__proto__" key silently.
  metadata: MetadataSchema.optional()
    .describe('Your own fields for these turns (JSON object, at most 4 KB), e.g. {"project": "apollo"}; recall can filter on them ("metadata.project").'),
  replace: z
    .boolean()
    .optional()
    .describe("true: the session holds exactly these turns afterwards (store a whole session; re-sending an unchanged session writes nothing). Default false: append."),
};

export const recallInput = {
  namespace,
  query: z.string().trim().min(1, "the query is empty").max(4000).describe('What to remember, as a question or topic: "When did Caroline go to the support group?"'),
  k: z.number().int().min(1).max(MAX_RECALL_K).optional().describe("How many memories to return (default 10)."),
  questionDate: date('When the question is asked; grounds "last year", "two weeks ago". Default: read against the namespace\'s history').optional(),
  validAt: date("The instant whose state you want (where someone lived, their job then): statements valid then come first, superseded or later ones last.").optional(),
  filter: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Only memories matching this: {"metadata.project": "apollo"}, {"sessionId": "s1"}, {"participant": "Ana"}, {"time": {"gte": "2023-05-01T00:00:00Z"}}, ranges gt/gte/lt/lte, in/nin lists, and AND/OR/NOT lists of filters.',
    ),
  minScore: z.number().min(0).max(1).optional().describe("Drop memories scoring below this (scores are 0 to 1; 0.5 or more: likely relevant)."),
};

export const updateInput = {
  namespace,
  id: z.string().min(1).max(200).describe("The unitId of the memory to correct (from recall)."),
  text: storedText(z.string()).trim().min(1, "text is empty").max(MAX_TURN_CHARS).describe("The corrected words, as the speaker would say them; the old text is kept in the memory's history."),
};

export const updateOutput = {
  namespace: z.string(),
  unitId: z.string(),
  content: z.string(),
  updatedAt: z.string().nullable(),
};

export const askInput = {
  namespace,
  question: z.string().trim().min(1, "the question is empty").max(4000).describe("The question to answer from memory."),
  k: z.number().int().min(1).max(MAX_RECALL_K).optional().describe("How many memories to recall as evidence (default 10)."),
  questionDate: date("When the question is asked (grounds relative times)").optional(),
  maxTokens: z.number().int().min(100).max(20_000).optional().describe("Token budget of the evidence pack (default 1500); the lowest-ranked memories are dropped to fit."),
  abstain: z
    .boolean()
    .optional()
    .describe("Default true: answer \"I don't have that in memory.\" without a model call when the store likely holds nothing for the question; false asks the model anyway."),
};

export const forgetInput = {
  namespace,
  what: z
    .enum(["unit", "session", "namespace"])
    .describe('"unit": one memory (id from recall); "session": a whole conversation; "namespace": everything in the namespace (admin keys only).'),
  id: z.string().min(1).max(200).optional().describe("The unit id (what=unit) or session id (what=session); not used for what=namespace."),
};

const Interval = z.object({ start: z.string(), end: z.string(), granularity: z.string() });

/** One recalled memory with every coordinate an agent needs to judge whether it applies. */
export const RecalledMemory = z.object({
  rank: z.number().int(),
  unitId: z.string(),
  /** The restatement used to find the unit ("Caroline went…"). */
  content: z.string(),
  /** What was said, word for word, relative times resolved beside them ("Caroline: I went yesterday (7 May 2023)"). */
  verbatim: z.string(),
  /** The speaker's role in a chat with an assistant; null between people. */
  role: z.string().nullable(),
  session: z.object({ id: z.string(), start: z.string(), end: z.string() }),
  eventTime: Interval.nullable(),
  participants: z.array(z.string()),
  location: z.string().nullable(),
  provenance: z.object({ sessionId: z.string(), turnIds: z.array(z.string()) }),
  score: z.number(),
  reasons: z.array(z.string()),
  /** The states its turn states, each keyed by subject and slot ("Ana", "residence") with its value ("porto"). Absent on memories stored before states were read. */
  states: z
    .array(z.object({ subject: z.string(), slot: z.string(), value: z.string(), additive: z.boolean(), ends: z.boolean(), evidence: z.string(), open: z.boolean().optional() }))
    .optional(),
  /** When its turn was said, when the turn carried its own time (ahead of the session start). */
  saidAt: z.string().optional(),
  /** For a memory that states a state: when it held (validTo null: still holds) and what superseded it (a unitId), how sure the rules are of that link, later related statements that did not supersede it. */
  validity: z
    .object({
      states: z.array(z.string()),
      validFrom: z.string(),
      validTo: z.string().nullable(),
      supersededBy: z.string().nullable(),
      origin: z.enum(["rule", "user"]),
      link: z.object({ confidence: z.number(), evidence: z.string() }).optional(),
      relatedLater: z.array(z.object({ unitId: z.string(), on: z.string(), evidence: z.string() })).optional(),
      ended: z.array(z.object({ state: z.string(), validTo: z.string(), supersededBy: z.string() })).optional(),
    })
    .optional(),
  /** For a plan: the later memory (unitId) that tells of it as done, and when. */
  planOutcome: z.object({ toldAsDoneBy: z.string(), on: z.string() }).optional(),
  /** A memory that depends on a state since superseded (`because`), flagged: supersededBy is the memory that changed it. */
  mayBeOutdated: z.object({ because: z.string(), supersededBy: z.string(), on: z.string() }).optional(),
});
export type RecalledMemory = z.infer<typeof RecalledMemory>;

const FrameSummary = z.object({
  active: z.boolean(),
  need: z.string(),
  time: z.object({ relation: z.string(), window: Interval, evidence: z.string(), confidence: z.number() }).nullable(),
  participants: z.array(z.string()).nullable(),
  location: z.array(z.string()).nullable(),
  /** In a chat with an assistant: whose turns hold the answer ("user" for a first-person question, "assistant" for what the assistant said). */
  role: z.enum(["user", "assistant"]).nullable(),
  /** "time" when the query asks when, "place" when it asks where, "quantity" when it asks how much or how many: units carrying a time (naming a place, stating a number) rank a little higher. */
  asksFor: z.enum(["time", "place", "quantity"]).nullable(),
  /** The words that make the query gather evidence from several episodes ("how many"), or null. */
  aggregates: z.string().nullable(),
  /** What a count or total is of ("how many citrus fruits" → "citrus fruits"): its kinds (lime, lemon, …) were searched too; or null. */
  counts: z.string().nullable(),
  /** Set when the query asks for the state that holds now: superseded statements rank last. */
  currentState: z.string().nullable(),
  /** The state slot the query asks about (residence, job, partner, …), answered from its statements valid at the asked time. */
  stateSlot: z.array(z.string()).nullable(),
  /** Which occurrence of a repeated event the query asks about ("her second trip to Japan"): the episode (session id) picked, or null. */
  occurrence: z.object({ event: z.string(), ordinal: z.number(), position: z.enum(["after", "before", "upcoming", "repeat"]).optional(), anchor: z.string().optional(), episode: z.string().nullable(), occurrences: z.number(), confidence: z.number() }).nullable(),
  notes: z.array(z.string()),
});

/** The recall's abstain judgment: whether the store likely holds evidence for the query at all. */
export const HoldsEvidence = z.object({
  likely: z.boolean(),
  confidence: z.number(),
  /** What no stored memory covers, and the closest memory; escaped for a model. */
  why: z.string(),
});

export const recallOutput = {
  namespace: z.string(),
  query: z.string(),
  frame: FrameSummary,
  holdsEvidence: HoldsEvidence,
  memories: z.array(RecalledMemory),
  /** The evidence pack as rendered for a generator (also the text content of the result). */
  evidence: z.string(),
};

export const askOutput = {
  namespace: z.string(),
  question: z.string(),
  llmConfigured: z.boolean(),
  answer: z.string().nullable(),
  /** true: the store likely holds nothing for the question, so no model was asked and answer says so. */
  abstained: z.boolean(),
  holdsEvidence: HoldsEvidence,
  cited: z.array(z.object({ rank: z.number().int(), unitId: z.string(), turnIds: z.array(z.string()) })),
  evidence: z.string(),
  memories: z.array(RecalledMemory),
};

export const rememberOutput = {
  namespace: z.string(),
  sessionId: z.string(),
  mode: z.enum(["created", "appended", "replaced", "unchanged"]),
  turnIds: z.array(z.string()),
  unitIds: z.array(z.string()),
  sessionStart: z.string(),
  sessionEnd: z.string(),
};

export const forgetOutput = {
  namespace: z.string(),
  what: z.enum(["unit", "session", "namespace"]),
  id: z.string().nullable(),
  unitsDeleted: z.number().int(),
};
