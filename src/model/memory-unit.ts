import { z } from "zod";
import { IsoDateTime, MentionedTime, TimeInterval } from "./time.js";
import { NamespaceName, Turn, TurnRole } from "./conversation.js";
import { StoredText } from "./stored-text.js";
import { MetadataSchema } from "./metadata.js";

/**
 * When the unit entered the conversation. The stable coordinate: event time is
 * often unknown or fuzzy, session time never is.
 */
export const SessionSpan = z.object({
  sessionId: StoredText,
  start: IsoDateTime,
  end: IsoDateTime,
});
export type SessionSpan = z.infer<typeof SessionSpan>;

/** A state the speaker states about themselves (language/extract-states.ts): keyed by (subject, slot). */
export const StateStatement = z.object({
  subject: StoredText,
  slot: StoredText,
  value: StoredText,
  additive: z.boolean(),
  ends: z.boolean(),
  evidence: StoredText,
  /**
   * True when the slot is the statement's own words ("5k personal best",
   * "using fitbit charge 3"), not one of the rules' named slots (residence,
   * job, …): two such statements are one key when their words agree, which
   * is less certain than a named slot. Absent: a named slot.
   */
  open: z.boolean().optional(),
});
export type StateStatement = z.infer<typeof StateStatement>;

/**
 * A user's correction of the derived supersession: this unit is superseded by
 * another (`supersededBy`), or explicitly not superseded (null) whatever the
 * rules say. Kept on the unit, so export and import carry it.
 */
export const SupersessionOverride = z.object({
  supersededBy: StoredText.nullable(),
  at: IsoDateTime,
});
export type SupersessionOverride = z.infer<typeof SupersessionOverride>;

/**
 * The topic segment of its session a unit belongs to (anchoring/segment-episodes.ts):
 * where a turn that does not name its place or people still gets them from
 * ("grilled sardines in Alfama" is part of the Lisbon trip). A session where
 * nothing changes is one episode.
 */
export const Episode = z.object({
  /** `<session id>#<first turn id>`: stable while turns are appended to the episode. */
  id: StoredText,
  firstTurnId: StoredText,
  lastTurnId: StoredText,
  /** The place its turns name most often (first named on a tie); null when none does. */
  place: StoredText.nullable(),
  /** The topic its turns have most often. */
  topic: StoredText.nullable(),
  /** Who speaks in it, then the names its turns mention that are not a place (people, mostly). */
  participants: z.array(StoredText),
});
export type Episode = z.infer<typeof Episode>;

export const EpisodicContext = z.object({
  /** When the described event happened, if it can be inferred. Never a copy of the session time. */
  eventTime: TimeInterval.nullable(),
  mentionedTimes: z.array(MentionedTime),
  session: SessionSpan,
  participants: z.array(StoredText),
  /**
   * The speaker's role in a chat with an assistant (user, assistant, ...);
   * null between people. Optional so that units stored before it existed read
   * as role-less.
   */
  role: TurnRole.nullable().optional(),
  /** States the unit's turns state (residence, job, partner, …); optional so that older units read as stating none. */
  states: z.array(StateStatement).optional(),
  /**
   * When its turn was said, when the turn carries its own time (a message's
   * createdAt): the time of its statements, ahead of the session start, which
   * is only the fallback. Absent: the turn had no time of its own.
   */
  saidAt: IsoDateTime.optional(),
  location: StoredText.nullable(),
  entities: z.array(StoredText),
  topic: StoredText.nullable(),
  /**
   * True when the unit tells of a plan or arrangement ("I'm going back to
   * Tokyo in May", "I booked a trip") rather than of something that happened:
   * its times are when the plan is for. Absent: a report (or a unit stored
   * before plans were marked).
   */
  planned: z.boolean().optional(),
  /** Its episode; optional so that units stored before segmentation existed read as one episode per session. */
  episode: Episode.optional(),
});
export type EpisodicContext = z.infer<typeof EpisodicContext>;

export const Provenance = z.object({
  sessionId: StoredText,
  /** Source turn ids, in conversation order. A unit "covers" exactly these turns. */
  turnIds: z.array(StoredText).min(1),
});
export type Provenance = z.infer<typeof Provenance>;

/** When a unit's stated state held, and what replaced it (anchoring/derive-validity.ts), as every face returns it. */
export const UnitValidity = z.object({
  states: z.array(z.string()),
  validFrom: IsoDateTime,
  validTo: IsoDateTime.nullable(),
  supersededBy: z.string().nullable(),
  origin: z.enum(["rule", "user"]),
  /** How sure the rules are of the supersession link (absent for a user's override or while valid), and the later words that made it. */
  link: z.object({ confidence: z.number().min(0).max(1), evidence: z.string() }).optional(),
  /** Later statements the rules found related but could not call a supersession ("related, stated later"): the unit stays valid. */
  relatedLater: z.array(z.object({ unitId: z.string(), on: IsoDateTime, evidence: z.string() })).optional(),
  /** States of the unit ("slot = value") a later statement ended while another it states still holds: when, and by which unit. */
  ended: z.array(z.object({ state: z.string(), validTo: IsoDateTime, supersededBy: z.string() })).optional(),
});

export const MemoryUnit = z.object({
  /** Deterministic: derived from namespace, session, turns and anchorer, so re-ingest is idempotent. */
  id: StoredText,
  namespace: NamespaceName,
  /** Self-contained restatement: speaker-attributed, relative times resolved. */
  content: StoredText,
  /**
   * Text from neighbouring turns that helps *find* this unit (e.g. the question
   * it answers) but is not part of what it states. Indexed, never shown as evidence.
   */
  cue: StoredText,
  context: EpisodicContext,
  provenance: Provenance,
  /** Which anchorer (and version) produced the unit. */
  anchoredBy: StoredText,
  /**
   * The provenance turns verbatim, as they were said (speaker, role, text,
   * time, attachments). The content is a restatement for indexing; this is
   * what the evidence pack shows, what export carries, and what re-anchoring
   * reads back. Optional: units stored before it existed have none.
   */
  source: z.array(Turn).optional(),
  /** A user's correction of what supersedes this unit (memory.supersede / unsupersede). */
  supersession: SupersessionOverride.optional(),
  /**
   * When the state the unit states held, derived at recall from the
   * namespace's later statements (never stored): present on recall hits of a
   * question about a current or past state.
   */
  validity: UnitValidity.optional(),
  /**
   * A statement that depends on a state since superseded ("my commute to the
   * Lisbon office", said before "I moved to Porto"): derived at recall (never
   * stored). It is kept, and flagged: `because` is the old state, `supersededBy`
   * the unit that changed it.
   */
  mayBeOutdated: z.object({ because: z.string(), supersededBy: z.string(), on: IsoDateTime }).optional(),
  /**
   * For a planned unit: the later turn of the same speaker that tells of it
   * as done (retrieval/plan-outcome.ts), derived at recall from the
   * candidates (never stored). Absent: no such turn among them.
   */
  planOutcome: z.object({ toldAsDoneBy: z.string(), on: IsoDateTime }).optional(),
  /** Its session's and turns' metadata (turn keys win). Absent: none. */
  metadata: MetadataSchema.optional(),
  /** When the store first held the unit, and when its text last changed (set by the store; absent on units not yet stored). */
  createdAt: IsoDateTime.optional(),
  updatedAt: IsoDateTime.optional(),
});
export type MemoryUnit = z.infer<typeof MemoryUnit>;
