import type { MemoryUnit } from "../../model/memory-unit.js";
import type { RecallFrame } from "../../model/recall-frame.js";
import type { ContentCandidate } from "../content-recall.js";

/** The signature the answer-kind cues share (time-, place- and quantity-asked-boost.ts). */
type AnswerKindBoost = (
  candidates: Iterable<ContentCandidate>,
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  bonus: number,
  reasons: (unitId: string) => string[],
) => void;

/** Runs an answer-kind cue over `units`, each a candidate scored 0.5: the scores after it by unit id, and the reasons it recorded. */
export function boostedScores(boost: AnswerKindBoost, units: readonly MemoryUnit[], frame: RecallFrame | null, bonus: number) {
  const candidates: ContentCandidate[] = units.map((u) => ({ unitId: u.id, score: 0.5 }));
  const reasons = new Map<string, string[]>();
  boost(candidates, frame, (id) => units.find((u) => u.id === id), bonus, (id) => reasons.get(id) ?? (reasons.set(id, []), reasons.get(id)!));
  return { scores: Object.fromEntries(candidates.map((c) => [c.unitId, c.score])), reasons };
}
