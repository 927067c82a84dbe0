import { z } from "zod";
import type { LanguageModel } from "../providers/language-model.js";
import { isFrameActive, isReliable, TimeRelation, type NamesCondition, type RecallFrame, type TimeCondition } from "../model/recall-frame.js";
import { describeInterval, Granularity, intervalsOverlap, TimeInterval } from "../model/time.js";
import { escapeStoredText } from "../language/escape-stored-text.js";

/**
 * A condition the model grounded: trusted enough to activate a frame, below
 * the rules' calendar grounding (1.0) and a named participant (0.9), because
 * a model can misread a date or invent a person.
 */
export const LLM_CONDITION_CONFIDENCE = 0.75;

export interface FrameRefinementContext {
  model: LanguageModel;
  history: { start: string; end: string } | null;
  questionDate?: string;
  knownPeople: readonly string[];
  /** Completion budget of the one call. Default 400. */
  maxTokens?: number;
}

export interface FrameRefinement {
  frame: RecallFrame;
  /** Which conditions the model added; empty when it added none or failed. */
  added: Array<"time" | "participants" | "location">;
  usage: { calls: number; promptTokens: number; completionTokens: number };
  /** Set when the call or its answer was unusable; the rule frame is returned unchanged. */
  warning?: string;
}

/** What the model must answer: every field may be null, none may be invented outside the query. */
const LlmFrame = z.object({
  need: z.string().nullish(),
  time: z
    .object({
      relation: TimeRelation,
      start: z.string().min(1),
      end: z.string().min(1),
      granularity: Granularity,
      evidence: z.string().min(1),
    })
    .nullish(),
  participants: z.array(z.string()).nullish(),
  location: z.string().nullish(),
});

const SYSTEM = `You read a question put to a conversation memory and say which episode it is about.
Answer with one JSON object, no prose:
{"need": the question without its time/person/place cues, or null,
 "time": {"relation": "during"|"before"|"after"|"around", "start": ISO 8601 UTC, "end": ISO 8601 UTC (exclusive), "granularity": "day"|"week"|"month"|"season"|"year", "evidence": the words of the question you read it from} or null,
 "participants": names from the known people that the question is about, or [],
 "location": a place named in the question, or null}
Only ground a time the question states or implies ("last summer", "the week before 9 June 2023"); a question that asks "when" has no time condition. Use null when unsure.`;

/**
 * The optional LLM step of stage 2: one call that may ground what the rules
 * could not ("the week after her birthday", a misspelt month). It only fills
 * conditions the rule frame left inactive — a reliable rule grounding is
 * never overridden — and it checks what it is told: times must parse and
 * overlap the history, people must be known, a place must be in the query.
 * Any failure returns the rule frame unchanged, with a warning.
 */
export async function refineFrameWithLlm(query: string, frame: RecallFrame, ctx: FrameRefinementContext): Promise<FrameRefinement> {
  const usage = { calls: 1, promptTokens: 0, completionTokens: 0 };
  // Speaker names are stored text: escaped like the evidence pack, so a name cannot start a line of its own or close a block.
  const shown = ctx.knownPeople.map(escapeStoredText);
  const user = [
    `Question: ${query}`,
    `Question date: ${ctx.questionDate ?? "unknown"}`,
    `Conversation history: ${ctx.history ? `${ctx.history.start} to ${ctx.history.end}` : "empty"}`,
    `Known people: ${shown.join(", ") || "none"}`,
  ].join("\n");
  let parsed: z.infer<typeof LlmFrame>;
  try {
    const result = await ctx.model.complete({
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: user },
      ],
      json: true,
      temperature: 0,
      maxTokens: ctx.maxTokens ?? 400,
    });
    usage.promptTokens = result.usage.promptTokens;
    usage.completionTokens = result.usage.completionTokens;
    const answer = LlmFrame.safeParse(JSON.parse(result.text));
    if (!answer.success) return failed(`answer does not fit the frame schema (${answer.error.issues[0]?.message ?? "invalid"})`);
    parsed = answer.data;
  } catch (err) {
    return failed(err instanceof SyntaxError ? "answer is not JSON" : (err as Error).message);
  }

  const source = `grounded by ${ctx.model.id}`;
  const notes: string[] = [];
  const added: FrameRefinement["added"] = [];

  let time: TimeCondition | null = frame.time;
  if (parsed.time) {
    const window = TimeInterval.safeParse({ start: toIso(parsed.time.start), end: toIso(parsed.time.end), granularity: parsed.time.granularity });
    if (!window.success) notes.push(`LLM time '${parsed.time.evidence}' ignored: not a valid interval`);
    else if (ctx.history && parsed.time.relation === "during" && !intervalsOverlap(window.data, ctx.history))
      notes.push(`LLM time '${parsed.time.evidence}' ignored: ${describeInterval(window.data)} is outside the history`);
    else if (isReliable(frame.time)) {
      if (!intervalsOverlap(window.data, frame.time.window)) notes.push(`LLM read '${parsed.time.evidence}' as ${describeInterval(window.data)}; the rule grounding is kept`);
    } else {
      time = { relation: parsed.time.relation, window: window.data, evidence: parsed.time.evidence, confidence: LLM_CONDITION_CONFIDENCE, note: source };
      added.push("time");
    }
  }

  let participants: NamesCondition | null = frame.participants;
  if (!isReliable(frame.participants) && parsed.participants?.length) {
    // The model saw the escaped names and answers with them: both spellings lead back to the stored name.
    const known = new Map([...ctx.knownPeople.map((p, i) => [shown[i]!.toLowerCase(), p] as const), ...ctx.knownPeople.map((p) => [p.toLowerCase(), p] as const)]);
    const names = [...new Set(parsed.participants.map((p) => known.get(p.trim().toLowerCase())).filter((p): p is string => p !== undefined))];
    const unknown = parsed.participants.filter((p) => !known.has(p.trim().toLowerCase()));
    if (unknown.length) notes.push(`LLM people not in this memory ignored: ${unknown.join(", ")}`);
    if (names.length) {
      participants = { names, evidence: names.join(", "), confidence: LLM_CONDITION_CONFIDENCE, note: source };
      added.push("participants");
    }
  }

  let location: NamesCondition | null = frame.location;
  const place = parsed.location?.trim();
  if (!isReliable(frame.location) && place) {
    if (query.toLowerCase().includes(place.toLowerCase())) {
      location = { names: [place], evidence: place, confidence: LLM_CONDITION_CONFIDENCE, note: source };
      added.push("location");
    } else notes.push(`LLM place '${place}' is not in the question; ignored`);
  }

  const need = added.length && parsed.need?.trim() ? parsed.need.trim() : frame.need;
  notes.push(added.length ? `LLM (${ctx.model.id}) added: ${added.join(", ")}` : `LLM (${ctx.model.id}) added nothing`);
  const active = isFrameActive({ time, participants, location, entities: frame.entities, role: frame.role ?? null, occurrence: frame.occurrence ?? null });
  return { frame: { ...frame, need, time, participants, location, active, notes: [...frame.notes, ...notes] }, added, usage };

  function failed(reason: string): FrameRefinement {
    const warning = `LLM frame refinement failed (${reason}); the rule frame is used`;
    return { frame: { ...frame, notes: [...frame.notes, warning] }, added: [], usage, warning };
  }
}

/** Models often answer "2023-06-02" for a day: read a bare date as UTC midnight. */
function toIso(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00.000Z` : value.trim();
}
