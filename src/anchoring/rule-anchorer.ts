import type { Anchorer, AnchorResult } from "./anchorer.js";
import type { SessionWithTurns, Turn } from "../model/conversation.js";
import type { EpisodicContext, MemoryUnit } from "../model/memory-unit.js";
import type { MentionedTime } from "../model/time.js";
import { annotateTimes } from "../language/annotate-times.js";
import { describeAttachments } from "../language/describe-attachments.js";
import { groundTimeExpressions } from "../language/time-grounding.js";
import { extractEntities, topicFrom, topicOf } from "../language/entities.js";
import { resolveFirstPerson } from "./resolve-first-person.js";
import { roleOfTurn, speakerIsRole } from "./role-of-turn.js";
import { extractStates } from "../language/extract-states.js";
import { futureCueIn } from "../language/plan-cue.js";
import { unitId } from "./unit-id.js";
import { checkFields } from "../model/check-args.js";
import { askedBefore, cueFor, dedupe, DEFAULT_CUE_WORDS, orderedParticipants } from "./unit-context.js";

export const RULE_ANCHORER_ID = "rule-anchorer@29";

/** Vague expressions ("recently", "the other day") ground to wide windows; below this they neither restate nor date the unit. */
const MIN_TIME_CONFIDENCE = 0.5;

export interface RuleAnchorerOptions {
  /** How many words of the previous turn go into a unit's cue (0 turns cues off). */
  cueWords?: number;
}

/**
 * The default anchorer: zero LLM calls. One unit per turn, because a turn is
 * the smallest thing a conversation attributes to one speaker at one time, and
 * it keeps provenance exact. The previous turn (usually the question this turn
 * answers) becomes the unit's cue: it helps find the unit, but it is not shown
 * as evidence and not counted in provenance.
 */
export function createRuleAnchorer(options: RuleAnchorerOptions = {}): Anchorer {
  checkFields("createRuleAnchorer", "options", options, "object?", { cueWords: "number?" });
  const cueWords = options.cueWords ?? DEFAULT_CUE_WORDS;
  return {
    specificationVersion: "v1",
    id: RULE_ANCHORER_ID,
    async anchorSession(input: SessionWithTurns): Promise<AnchorResult> {
      const { session, turns } = input;
      const participants = orderedParticipants(session.participants, turns);
      const units: MemoryUnit[] = turns.map((turn, i) => {
        const reference = turn.time ?? session.startTime;
        const mentionedTimes: MentionedTime[] = groundTimeExpressions(turn.text, reference)
          .filter((g) => g.confidence >= MIN_TIME_CONFIDENCE)
          .map((g) => ({
          text: g.text,
          interval: g.interval,
          kind: g.kind,
        }));
        const found = extractEntities(withCaptions(turn));
        // The topic reads the words alone; without captions that is the same parse.
        const topic = turn.attachments?.length ? topicOf(turn.text) : topicFrom(found);
        const context: EpisodicContext = {
          eventTime: inferEventTime(mentionedTimes),
          mentionedTimes,
          session: { sessionId: session.id, start: session.startTime, end: session.endTime },
          participants: [turn.speaker, ...participants.filter((p) => p !== turn.speaker)],
          role: roleOfTurn(turn),
          states: extractStates(turn.text, turn.speaker, askedBefore(turns[i - 1], turn)),
          // The turn's own time (a message's createdAt) dates its statements; the session start is the fallback.
          ...(turn.time ? { saidAt: turn.time } : {}),
          location: found.places[0] ?? null,
          entities: dedupe([...found.people, ...found.organizations, ...found.places, ...found.topics]),
          topic,
          // A person's plan; an assistant's "I'll look into it" is no event of theirs.
          ...(roleOfTurn(turn) !== "assistant" && futureCueIn(turn.text) !== null ? { planned: true } : {}),
        };
        const previous = turns[i - 1];
        return {
          id: unitId(session.namespace, session.id, [turn.id], RULE_ANCHORER_ID),
          namespace: session.namespace,
          content: restate(turn, mentionedTimes),
          cue: cueFor(previous, cueWords),
          context,
          provenance: { sessionId: session.id, turnIds: [turn.id] },
          anchoredBy: RULE_ANCHORER_ID,
          source: [turn],
        };
      });
      return { units, warnings: [] };
    },
  };
}

/** "Caroline went to a LGBTQ support group yesterday (7 May 2023) ... [shares an image: ...]" */
export function restate(turn: Turn, mentionedTimes: readonly MentionedTime[]): string {
  // "I" is rewritten to a name only: a speaker known by a role alone keeps "I".
  let text = speakerIsRole(turn) ? turn.text.trim() : resolveFirstPerson(turn.text.trim(), turn.speaker);
  // Resolve each relative expression in place so the unit stays true when read later.
  text = annotateTimes(text, mentionedTimes);
  const body = [text, ...describeAttachments(turn)].filter(Boolean).join(" ");
  return body.startsWith(turn.speaker) ? body : `${turn.speaker}: ${body}`;
}

/**
 * The event time is the first grounded time the turn mentions. With none, it
 * stays null: the session span already says when the unit was said, and
 * copying it here would conflate the two coordinates.
 */
function inferEventTime(mentioned: readonly MentionedTime[]): EpisodicContext["eventTime"] {
  return mentioned[0]?.interval ?? null;
}

function withCaptions(turn: Turn): string {
  return [turn.text, ...(turn.attachments ?? []).map((a) => a.caption)].join(". ");
}
