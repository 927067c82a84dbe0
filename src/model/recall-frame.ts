import { z } from "zod";
import { TimeInterval } from "./time.js";

/**
 * Stage 2's output: the conditions valid evidence must meet. Each condition
 * carries the query text it came from and how sure the grounding is, so a
 * caller (and a user reading `--json`) can see why the frame looks the way it
 * does. Only conditions at or above ACTIVATION_CONFIDENCE make a frame active.
 */
export const ACTIVATION_CONFIDENCE = 0.7;

export const TimeRelation = z.enum(["during", "before", "after", "around"]);
export type TimeRelation = z.infer<typeof TimeRelation>;

const Grounding = {
  /** The span of the query this condition was read from ("last August"). */
  evidence: z.string(),
  confidence: z.number().min(0).max(1),
  /** How it was grounded, for humans ("month name; one August in the history (2023)"). */
  note: z.string(),
};

export const TimeCondition = z.object({
  relation: TimeRelation,
  /** For during/around: the window itself; for before/after: the anchor's interval (the relation says which side). */
  window: TimeInterval,
  /** Set when the anchor is an event found in memory ("after the adoption meeting"). */
  anchorUnitId: z.string().optional(),
  /** Grounded surely, yet no part of the history (its sessions) is in it: its confidence is capped at 0.5 for that alone. */
  outsideHistory: z.literal(true).optional(),
  ...Grounding,
});
export type TimeCondition = z.infer<typeof TimeCondition>;

export const NamesCondition = z.object({
  names: z.array(z.string()).min(1),
  ...Grounding,
});
export type NamesCondition = z.infer<typeof NamesCondition>;

export const RoleCondition = z.object({
  /** Whose turns are valid evidence: the user's own statements, or what the assistant said. */
  role: z.enum(["user", "assistant"]),
  ...Grounding,
});
export type RoleCondition = z.infer<typeof RoleCondition>;

export const OccurrenceCondition = z.object({
  /** 1 = first, 2 = second, …; -1 = the last, -2 = the one before it; once grounded, the chosen one's place among the occurrences. */
  ordinal: z.number().int(),
  /** The event the ordinal counts, as the query names it ("trip to Japan"). */
  event: z.string(),
  /** How the query places it, when not by counting from the first or the last: from another occurrence, the one ahead, the repeat. */
  position: z.enum(["after", "before", "upcoming", "repeat"]).optional(),
  /** For "after"/"before": the occurrence counted from, as the query names it. */
  anchor: z.string().optional(),
  /** The occurrences found in the history, oldest first: one episode each, with when it happened (or is to happen, for a plan). */
  occurrences: z.array(z.object({ episodeId: z.string(), time: z.string(), planned: z.boolean().optional() })),
  /** The episode of the occurrence asked about; null when the history has too few occurrences. */
  episodeId: z.string().nullable(),
  ...Grounding,
});
export type OccurrenceCondition = z.infer<typeof OccurrenceCondition>;

export const RecallFrame = z.object({
  /** The information need r_q: the query with the frame cues taken out. */
  need: z.string(),
  time: TimeCondition.nullable(),
  participants: NamesCondition.nullable(),
  location: NamesCondition.nullable(),
  entities: NamesCondition.nullable(),
  /** In a chat with an assistant: whose turns hold the answer. Optional so that frames stored before it read as none. */
  role: RoleCondition.nullable().optional(),
  /**
   * What kind of answer the need asks for: "time" for "When did…", "How
   * long…", "What year…"; "place" for "Where…", "Which city…"; "quantity"
   * for "How much…", "How many…" (not "how many days", a time). No
   * condition — it rules nothing out and never makes a frame active — but
   * units that carry a time (name a place, state a number) rank a little higher.
   */
  asksFor: z.enum(["time", "place", "quantity"]).nullable(),
  /**
   * Set when the need gathers evidence from several episodes ("how many",
   * "in total", "which … first"): the query text that says so. No condition
   * either; retrieval spreads the budget over episodes instead of one.
   * `counts`: the category a count or total is of ("how many citrus
   * fruits" → "citrus fruits"), whose kinds retrieval searches too.
   */
  aggregates: z.object({ evidence: z.string(), counts: z.string().optional() }).nullable(),
  /**
   * Set when the query asks for the state that holds now ("where does she
   * live now", a present-tense state question): superseded statements rank
   * behind the currently valid ones. A query with a past time asks for the
   * state valid then, which the time condition selects. Optional for frames
   * made before it existed.
   */
  currentState: z.object({ evidence: z.string() }).nullable().optional(),
  /**
   * The state the query asks about, as statements name it ("where does she
   * live" → residence): the statements of that slot valid at the asked time
   * answer it. Set only with a current-state cue or a past time. Optional.
   */
  stateSlot: z.object({ slots: z.array(z.string()).min(1), evidence: z.string() }).nullable().optional(),
  /**
   * Whose state a state question asks about (induction/state-subject.ts):
   * a relation of the asker or of a named person ("my sister", "Ines's
   * sister"), a named person, or the asker. Set with currentState or
   * stateSlot. Optional.
   */
  stateSubject: z
    .object({ relation: z.string().optional(), of: z.string().optional(), name: z.string().optional(), self: z.boolean().optional(), evidence: z.string() })
    .nullable()
    .optional(),
  /**
   * Which occurrence of a repeated event the query asks about ("her second
   * trip to Japan"): valid evidence sits in that occurrence's episode.
   * Optional for frames made before it existed.
   */
  occurrence: OccurrenceCondition.nullable().optional(),
  /** True when at least one condition is reliably grounded; an inactive frame is never used to rank. */
  active: z.boolean(),
  /** Cues seen but not used, and why ("'last year' is ambiguous over a 5-year history with no question date"). */
  notes: z.array(z.string()),
});
export type RecallFrame = z.infer<typeof RecallFrame>;

export const EMPTY_FRAME = (query: string, notes: string[] = []): RecallFrame => ({
  need: query,
  time: null,
  participants: null,
  location: null,
  entities: null,
  role: null,
  asksFor: null,
  aggregates: null,
  currentState: null,
  stateSlot: null,
  stateSubject: null,
  occurrence: null,
  active: false,
  notes,
});

/** A condition grounded reliably enough to be used (at or above ACTIVATION_CONFIDENCE). */
export function isReliable<T extends { confidence: number }>(condition: T | null): condition is T {
  return condition !== null && condition.confidence >= ACTIVATION_CONFIDENCE;
}

/** A frame is active when any of its conditions is reliable. */
export function isFrameActive(frame: Pick<RecallFrame, "time" | "participants" | "location" | "entities" | "role" | "occurrence">): boolean {
  return [frame.time, frame.participants, frame.location, frame.entities, frame.role ?? null, frame.occurrence ?? null].some(isReliable);
}

export type FrameConditionName = "time" | "participants" | "location" | "entities" | "role" | "occurrence";

/** The frame without some of its conditions, its activity recomputed (ablations; a caller's own restrictions). */
export function withoutConditions(frame: RecallFrame, names: readonly FrameConditionName[]): RecallFrame {
  const out: RecallFrame = { ...frame };
  for (const name of names) out[name] = null;
  return { ...out, active: isFrameActive(out) };
}
