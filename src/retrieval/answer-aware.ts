import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";
import type { ReinstateSignals } from "./reinstate-signals.js";
import { asksQuestion } from "./asks-question.js";
import { speaksForAService } from "./speaks-for-a-service.js";
import { boostTimedUnits } from "./time-asked-boost.js";
import { boostPlacedUnits } from "./place-asked-boost.js";
import { boostQuantifiedUnits } from "./quantity-asked-boost.js";

/**
 * The dialogue and answer-kind step: adjusted copies of the candidates (plus
 * answers that were not in the pool), best first. A candidate that asks a
 * question loses QUESTION_PENALTY and lends its answer — the next unit of its
 * session — ANSWER_LIFT of its score; then, when the query asks when, units
 * that carry a time gain TIME_ANSWER_BONUS (time-asked-boost.ts), and when it
 * asks where, units that name a place PLACE_ANSWER_BONUS (place-asked-boost.ts), and
 * when it asks how much, units that state a number QUANTITY_ANSWER_BONUS
 * (quantity-asked-boost.ts). Reasons go
 * into `reasonsOf`: every returned candidate has a list there.
 */
export function answerAware(
  contentRanking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: { sessionContext: boolean; nextUnitOf?: (unitId: string) => string | undefined },
  signals: ReinstateSignals,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const byId = new Map(contentRanking.map((c) => [c.unitId, { ...c }]));
  const reasons = (id: string) => reasonsOf.get(id) ?? (reasonsOf.set(id, []), reasonsOf.get(id)!);
  if (options.sessionContext && options.nextUnitOf) {
    for (const [rank, c] of contentRanking.entries()) {
      const unit = unitOf(c.unitId);
      if (!unit || !asksQuestion(unit)) continue;
      // A user asking an assistant is asking for help, and the question itself
      // carries the user's facts ("I've had my Fitbit for nine months, can
      // you…?"); only a question put to a person is answered with the fact.
      if (signals.roleAwareDialogue && unit.context.role === "user") continue;
      if (signals.questionPenalty > 0) {
        byId.get(c.unitId)!.score -= signals.questionPenalty;
        reasons(c.unitId).push(`asks a question −${signals.questionPenalty}`);
      }
      const next = options.nextUnitOf(c.unitId);
      if (signals.answerLift <= 0 || next === undefined || !unitOf(next)) continue;
      // An assistant's reply is long and generic: it inherits nothing.
      if (signals.roleAwareDialogue && speaksForAService(unitOf(next)!)) continue;
      const answer = byId.get(next) ?? { unitId: next, score: 0 };
      if (signals.answerLift * c.score > answer.score) {
        answer.score = signals.answerLift * c.score;
        reasons(next).push(`answers ${unit.provenance.turnIds.join(",")} (content #${rank + 1})`);
      }
      byId.set(next, answer);
    }
  }
  boostTimedUnits(byId.values(), frame, unitOf, signals.timeAnswerBonus, reasons);
  boostPlacedUnits(byId.values(), frame, unitOf, signals.placeAnswerBonus, reasons);
  boostQuantifiedUnits(byId.values(), frame, unitOf, signals.quantityAnswerBonus, reasons);
  for (const c of byId.values()) reasons(c.unitId);
  return [...byId.values()].sort((a, b) => b.score - a.score || a.unitId.localeCompare(b.unitId));
}
