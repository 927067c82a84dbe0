import type { EpisodicContext } from "../model/memory-unit.js";
import type { RecallFrame, TimeCondition } from "../model/recall-frame.js";
import { isReliable } from "../model/recall-frame.js";
import { describeInterval } from "../model/time.js";
import { escapeRegExp } from "../language/text.js";

export interface ContextMatch {
  /** The unit meets every active condition of the frame. */
  ok: boolean;
  /** Human-readable: which conditions were met, and by which coordinate. */
  met: string[];
}

export interface MatchOptions {
  /** false (ablation no-session-context): only event and mentioned times count, not the session span. */
  sessionContext: boolean;
  /**
   * A unit's time meets a "during"/"around" window only when it is no
   * coarser than the window ("this month" says nothing about "last Saturday").
   * Default true.
   */
  fineTimesOnly?: boolean;
  /**
   * Place, topic and people conditions are also met by the unit's episode
   * (its topic segment: "grilled sardines in Alfama" is part of the Lisbon
   * trip). Default true; false is the ramem-no-episode-context ablation.
   */
  episodeContext?: boolean;
  /** When the state the unit states held (validTo null: still): a past window it overlaps places the unit in it. */
  validDuring?: { start: string; end: string | null };
  /**
   * The unit's own words, when the caller has them: a person named only to
   * address them ("Nadia, I've moved!", "Thanks, Mel!") is not what the turn
   * is about. Absent: every person the unit names counts.
   */
  spoken?: string;
}

/** How much longer than the window a unit's time may be and still place the unit in it (a weekend against "Saturday"). */
const COARSER_THAN_WINDOW = 2;

/**
 * Does a unit's episodic context satisfy a recall frame, and why. Only
 * conditions grounded reliably enough to activate the frame are checked;
 * the others were noted at induction and play no part here.
 */
export function matchContext(context: EpisodicContext, frame: RecallFrame, options: MatchOptions): ContextMatch {
  const met: string[] = [];

  if (isReliable(frame.time)) {
    const why = matchTime(context, frame.time, options);
    if (!why) return { ok: false, met };
    met.push(why);
  }
  const episode = options.episodeContext ?? true ? (context.episode ?? null) : null;
  if (isReliable(frame.participants)) {
    const who = frame.participants.names.find((n) => isSubject(context, n, options.spoken));
    // A person who does not speak in the session is there in the episode that talks of them.
    const inEpisode = who ? undefined : frame.participants.names.find((n) => episode?.participants.some((p) => sameName(p, n)) && !context.participants.some((p) => sameName(p, n)));
    if (!who && !inEpisode) return { ok: false, met };
    met.push(who ? `about ${who}` : `in an episode about ${inEpisode}`);
  }
  // The place of an occurrence asked about ("her first visit to her parents in
  // Enugu") holds for its whole episode: the turn that tells what happened there
  // rarely names the place again.
  const occurrence = frame.occurrence ?? null;
  const inOccurrence = isReliable(occurrence) && occurrence.episodeId !== null && options.sessionContext && context.session.sessionId === occurrence.episodeId;
  const placeOfOccurrence = (n: string) => inOccurrence && occurrence!.event.toLowerCase().includes(n.toLowerCase());
  if (isReliable(frame.location)) {
    const where = frame.location.names.find((n) => sameName(context.location, n) || context.entities.some((e) => sameName(e, n)) || placeOfOccurrence(n));
    const episodePlace = where ? undefined : frame.location.names.find((n) => sameName(episode?.place ?? null, n));
    if (!where && !episodePlace) return { ok: false, met };
    met.push(where ? `at ${where}` : `in an episode at ${episodePlace}`);
  }
  const role = frame.role ?? null;
  if (isReliable(role)) {
    if (context.role !== role.role) return { ok: false, met };
    met.push(`said by the ${role.role}`);
  }
  if (isReliable(occurrence) && occurrence.episodeId !== null) {
    if (!inOccurrence) return { ok: false, met };
    // A plan told in the occurrence's episode ("a third interview next month") is about a later one.
    if (context.planned && occurrence.position !== "upcoming") return { ok: false, met };
    const position = occurrence.occurrences.findIndex((o) => o.episodeId === occurrence.episodeId) + 1;
    met.push(`in occurrence ${position} of ${occurrence.occurrences.length} of '${occurrence.event}'`);
  }
  if (isReliable(frame.entities)) {
    const what = frame.entities.names.find((n) => context.entities.some((e) => sameName(e, n)));
    const episodeTopic = what ? undefined : frame.entities.names.find((n) => sameName(episode?.topic ?? null, n));
    if (!what && !episodeTopic) return { ok: false, met };
    met.push(what ? `mentions ${what}` : `in an episode about ${episodeTopic}`);
  }
  return { ok: met.length > 0, met };
}

/**
 * A person condition is met by the unit's speaker (participants[0]) or a
 * person the unit mentions. Being merely present is not enough: in a
 * two-person chat everyone is present in every episode, so presence would
 * not tell any two units apart. Nor is being addressed ("Hey Caroline!"):
 * chat turns open with the other speaker's name, so every reply would be
 * "about" them (measured on LoCoMo: README › Numbers, ramem-no-addressee-rule).
 */
function isSubject(context: EpisodicContext, name: string, spoken?: string): boolean {
  if (sameName(context.participants[0] ?? null, name)) return true;
  return context.entities.some((e) => sameName(e, name)) && !(spoken !== undefined && onlyAddressed(spoken, name));
}

const GREETING = "(?:hey|hi|hello|hiya|yo|oh|ah|wow|thanks|thank you|congrats|congratulations|good morning|good night|bye|dear|so|well|ok|okay)";

/** Every time the text names the person (by the first name), it is to address them: at the start or end of a sentence, set off by a comma or "!". */
function onlyAddressed(spoken: string, name: string): boolean {
  const { mention, vocative } = addressPatterns(name.trim().split(/\s+/)[0]!);
  const mentions = [...spoken.matchAll(mention)];
  if (mentions.length === 0) return false;
  // Where the name stands in each vocative: group 1 (opening a sentence) or 2 (closing one).
  const addressed = new Set([...spoken.matchAll(vocative)].map((m) => (m.indices![1] ?? m.indices![2])![0]));
  return mentions.every((m) => addressed.has(m.index!));
}

// A frame names few people, and every candidate of a recall is checked against them: compile once per name.
const patternsByName = new Map<string, { mention: RegExp; vocative: RegExp }>();

function addressPatterns(first: string): { mention: RegExp; vocative: RegExp } {
  let patterns = patternsByName.get(first);
  if (!patterns) {
    const escaped = escapeRegExp(first);
    patterns = {
      mention: new RegExp(`\\b${escaped}\\b`, "giu"),
      vocative: new RegExp(`(?:^|[.!?]\\s+|^${GREETING}\\s+|[.!?]\\s+${GREETING}\\s+)(${escaped})\\s*[,!.?]|,\\s*(${escaped})\\s*(?:[.!?]|$)`, "giud"),
    };
    if (patternsByName.size > 1_000) patternsByName.clear();
    patternsByName.set(first, patterns);
  }
  return patterns;
}

/**
 * One name is the other or its leading words ("Mel" of "Mel Smith", "Downtown
 * Farmers" of "Downtown Farmers Market"): taggers cut names short at
 * different words, and a first word alone already counts, so a longer
 * shared start must too.
 */
function sameName(a: string | null, b: string): boolean {
  if (!a) return false;
  const x = a.toLowerCase().split(/\s+/);
  const y = b.toLowerCase().split(/\s+/);
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  return shorter.every((word, i) => longer[i] === word);
}

/**
 * Whether any time of the unit — its session, event time or a time it
 * mentions, of any granularity — lies within `marginMs` of the condition's
 * window: the loosest reading, for the abstain judgment.
 */
export function nearTime(context: EpisodicContext, condition: TimeCondition, marginMs: number): boolean {
  const window = relationWindow(condition);
  const start = window.start - marginMs;
  const end = window.end + marginMs;
  return timesOf(context, { sessionContext: true }).some(([, t]) => Date.parse(t.start) < end && start < Date.parse(t.end));
}

/**
 * The unit's times a condition may meet, each with how it says it: its event time, the times it mentions, when it
 * was said, when its state held. When it was said is its turn's own time where the turn has one, else its session's
 * span: a thread of messages over three weeks is no episode of three weeks for each of them ("my plank max is 1:45",
 * said on 3 January, answers "at the start of January"; "2:20, a new record", said on the 24th, does not).
 */
function timesOf(context: EpisodicContext, options: Pick<MatchOptions, "sessionContext" | "validDuring">): Array<[string, { start: string; end: string }]> {
  const times: Array<[string, { start: string; end: string }]> = [];
  if (context.eventTime) times.push(["event time", context.eventTime]);
  for (const m of context.mentionedTimes) times.push([`mentions "${m.text}"`, m.interval]);
  if (options.sessionContext) {
    times.push(context.saidAt ? ["said", { start: context.saidAt, end: sessionEnd({ start: context.saidAt, end: context.saidAt }) }] : ["session", { start: context.session.start, end: sessionEnd(context.session) }]);
  }
  if (options.validDuring) times.push(["valid", { start: options.validDuring.start, end: options.validDuring.end ?? "9999-12-31T00:00:00.000Z" }]);
  return times;
}

function matchTime(context: EpisodicContext, condition: TimeCondition, options: MatchOptions): string | null {
  const window = relationWindow(condition);
  const candidates = timesOf(context, options);
  const bounded = condition.relation === "during" || condition.relation === "around";
  const windowLength = window.end - window.start;
  for (const [label, t] of candidates) {
    const length = Date.parse(t.end) - Date.parse(t.start);
    if ((options.fineTimesOnly ?? true) && bounded && label !== "session" && label !== "said" && label !== "valid" && length > COARSER_THAN_WINDOW * windowLength) continue;
    if (Date.parse(t.start) < window.end && window.start < Date.parse(t.end)) {
      return `${label} ${condition.relation} ${describeInterval(condition.window)}`;
    }
  }
  return null;
}

/**
 * before/after become open-ended windows; around widens the window by its own
 * length on each side. Before/after an *event* found in memory keeps the
 * event's own time inside the window: a conversation tells of an event and
 * of what came of it in the same episode ("what did she realise after the
 * race?" is answered where the race is told), and an event dated only by its
 * session would otherwise shut out that very session.
 */
function relationWindow(c: TimeCondition): { start: number; end: number } {
  const start = Date.parse(c.window.start);
  const end = Date.parse(c.window.end);
  const ofEvent = c.anchorUnitId !== undefined;
  switch (c.relation) {
    case "during":
      return { start, end };
    case "around":
      return { start: start - (end - start), end: end + (end - start) };
    case "before":
      return { start: Number.NEGATIVE_INFINITY, end: ofEvent ? end : start };
    case "after":
      return { start: ofEvent ? start : end, end: Number.POSITIVE_INFINITY };
  }
}

/** Sessions dated by their start only are a point; give them the rest of that day so overlap tests work. */
function sessionEnd(s: { start: string; end: string }): string {
  return s.end > s.start ? s.end : new Date(Date.parse(s.start) + 60_000).toISOString();
}
