import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import type { SupportedCandidate } from "./episode-support.js";

/**
 * The statements of the asked state, valid at the asked time (state-answers.ts),
 * answer a question about it: they go first, in their order (newest first),
 * as the candidates they are in `supported` (score 0 when they were none);
 * the rest follows in its order.
 */
export function statesFirst(
  ordered: ContentCandidate[],
  answersFromStates: readonly MemoryUnit[],
  supported: readonly SupportedCandidate[],
  frame: RecallFrame | null,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  if (answersFromStates.length === 0) return ordered;
  const scoreOfState = new Map(supported.map((x) => [x.candidate.unitId, x]));
  const first = answersFromStates.map((u) => scoreOfState.get(u.id)?.candidate ?? { unitId: u.id, score: 0 });
  for (const c of first) {
    if (!reasonsOf.has(c.unitId)) reasonsOf.set(c.unitId, []);
    reasonsOf.get(c.unitId)!.unshift(`states the ${frame!.stateSlot!.slots[0]} ${frame!.currentState ? "valid now" : "valid then"}`);
  }
  const ids = new Set(first.map((c) => c.unitId));
  return [...first, ...ordered.filter((c) => !ids.has(c.unitId))];
}
