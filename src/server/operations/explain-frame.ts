import { ACTIVATION_CONFIDENCE, isReliable, type FrameConditionName, type RecallFrame } from "../../model/recall-frame.js";
import { describeInterval } from "../../model/time.js";

export interface ExplainedCondition {
  name: FrameConditionName;
  value: string;
  evidence: string;
  confidence: number;
  note: string;
  active: boolean;
  why: string;
}

/**
 * The recall frame as the inspector's recall debugger shows it: each condition
 * the rules grounded, whether it restricts the ranking and why (the one rule:
 * a condition is used at or above ACTIVATION_CONFIDENCE), and the cues that
 * are no condition. Read off the frame only, so it cannot disagree with it.
 */
export function explainFrame(frame: RecallFrame | null): { conditions: ExplainedCondition[]; cues: string[] } {
  if (!frame) return { conditions: [], cues: ["no frame: content-only ranking"] };
  const conditions: ExplainedCondition[] = [];
  const add = (name: FrameConditionName, c: { evidence: string; confidence: number; note: string } | null | undefined, value: string) => {
    if (!c) return;
    // Asked through a copy, so the type guard does not narrow c itself.
    const active = isReliable({ confidence: c.confidence });
    const threshold = ACTIVATION_CONFIDENCE.toFixed(2);
    const why = active
      ? `confidence ${c.confidence.toFixed(2)} ≥ ${threshold}: units whose context meets it rank first (C_ctx)`
      : `confidence ${c.confidence.toFixed(2)} < ${threshold}: too unsure to restrict the ranking, so it is not used`;
    conditions.push({ name, value, evidence: c.evidence, confidence: c.confidence, note: c.note, active, why });
  };
  if (frame.time) add("time", frame.time, `${frame.time.relation} ${describeInterval(frame.time.window)}${frame.time.anchorUnitId ? ` (anchor ${frame.time.anchorUnitId})` : ""}`);
  add("participants", frame.participants, frame.participants?.names.join(", ") ?? "");
  add("location", frame.location, frame.location?.names.join(", ") ?? "");
  add("entities", frame.entities, frame.entities?.names.join(", ") ?? "");
  add("role", frame.role, frame.role ? `said by the ${frame.role.role}` : "");
  const occurrence = frame.occurrence;
  if (occurrence) {
    const picked = occurrence.episodeId ? `episode ${occurrence.episodeId}` : "none picked";
    const placed = occurrence.position === "after" || occurrence.position === "before" ? ` (the one ${occurrence.position} '${occurrence.anchor}')` : occurrence.position === "upcoming" ? " (the next one, still a plan)" : occurrence.position === "repeat" ? " (the repeat)" : "";
    add("occurrence", occurrence, `${picked}${placed} of ${occurrence.occurrences.length} that tell of '${occurrence.event}'`);
  }
  const cues: string[] = [`need: ${frame.need}`];
  if (frame.asksFor) cues.push(`asks for a ${frame.asksFor}: units that ${frame.asksFor === "time" ? "carry" : frame.asksFor === "place" ? "name" : "state"} one rank a little higher (no condition)`);
  if (frame.aggregates) cues.push(`aggregates ("${frame.aggregates.evidence}"): the list is spread over episodes (no condition)`);
  if (frame.aggregates?.counts) cues.push(`counts "${frame.aggregates.counts}": its kinds are searched too (no condition)`);
  if (frame.currentState) cues.push(`asks for the current state ("${frame.currentState.evidence}"): superseded statements rank behind valid ones`);
  if (frame.stateSlot) cues.push(`state asked about: ${frame.stateSlot.slots.join(", ")} ("${frame.stateSlot.evidence}")`);
  if (!frame.active) cues.push("frame inactive: no condition is reliable, so the ranking is the content ranking");
  for (const note of frame.notes) cues.push(`note: ${note}`);
  return { conditions, cues };
}
