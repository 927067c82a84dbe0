import type { MemoryStore } from "../store/contract.js";
import type { FilterNode } from "../model/memory-filter.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { lexicalTerms } from "../language/text.js";
import { planOutcomes, planNames } from "./plan-outcome.js";
import { answersToQuestions } from "./answers-to-questions.js";

/** How many of the namespace's best lexical matches for a plan's names are read to find its report. */
export const REPORT_SEARCH_DEPTH = 20;

/**
 * For each plan that names a place or a name, the later turn of its speaker
 * that tells of it as done, looked for among the namespace's best lexical
 * matches for those names (one search per plan). Plans without a report are
 * left out of the map. `seen` (plan id → report, null for none) carries what
 * one recall looked up already: its induction and its hits ask of the same
 * plans.
 */
export async function reportsOfPlans(
  store: MemoryStore,
  namespace: string,
  plans: readonly MemoryUnit[],
  where?: FilterNode,
  seen: Map<string, MemoryUnit | null> = new Map(),
): Promise<Map<string, MemoryUnit>> {
  const found = new Map<string, MemoryUnit>();
  for (const plan of plans) {
    if (!plan.context.planned || planNames(plan).size === 0) continue;
    const known = seen.get(plan.id);
    if (known !== undefined) {
      if (known) found.set(plan.id, known);
      continue;
    }
    const ids = await store.searchLexical(namespace, lexicalTerms([...planNames(plan)].join(" ")), REPORT_SEARCH_DEPTH, where ? { where } : {});
    const matches = await store.getUnits(namespace, ids.map((s) => s.id));
    // The other speaker may ask of it by name ("How was Enugu?"): the turn that answers tells of it.
    const asked = matches.filter((u) => u.context.participants[0] !== plan.context.participants[0] && u.context.session.start > plan.context.session.start);
    const answers = asked.length > 0 ? await answersToQuestions(store, namespace, asked, (u) => u, where) : new Map<string, MemoryUnit>();
    const answerTo = new Map([...answers].map(([questionId, answer]) => [answer.id, asked.find((q) => q.id === questionId)!] as const));
    const candidates = [...matches, ...[...answers.values()].filter((a) => !matches.some((u) => u.id === a.id))];
    const outcome = planOutcomes([plan], candidates, { namesOnly: true, answerTo }).get(plan.id);
    const report = outcome ? candidates.find((u) => u.id === outcome.toldAsDoneBy) : undefined;
    seen.set(plan.id, report ?? null);
    if (report) found.set(plan.id, report);
  }
  return found;
}
