import type { MemoryUnit } from "../model/memory-unit.js";
import type { ContentCandidate } from "./content-recall.js";
import { asksQuestion } from "./asks-question.js";

/**
 * In the occurrence the frame picked, the other speaker's question about it
 * ("How was Jeju with your mum?") only repeats the event's words; the answer
 * tells it. Each context-valid question is moved behind its answer when the
 * answer is context-valid too.
 */
export function answersBeforeQuestions(
  ordered: readonly ContentCandidate[],
  contextValid: ReadonlySet<string>,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  nextUnitOf: (unitId: string) => string | undefined,
  roleAware: boolean,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const out = [...ordered];
  for (const question of ordered) {
    const unit = unitOf(question.unitId);
    if (!contextValid.has(question.unitId) || !unit || !asksQuestion(unit)) continue;
    // A user asking an assistant states their own facts in the question (as in answerAware).
    if (roleAware && unit.context.role === "user") continue;
    const answer = nextUnitOf(question.unitId);
    const at = out.indexOf(question);
    const answerAt = out.findIndex((c) => c.unitId === answer);
    if (answer === undefined || !contextValid.has(answer) || answerAt < at) continue;
    out.splice(at, 1);
    out.splice(answerAt, 0, question);
    reasonsOf.get(question.unitId)!.push(`follows its answer ${answer} in the occurrence`);
  }
  return out;
}
