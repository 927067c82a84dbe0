import type { MemoryStore } from "../store/contract.js";
import type { FilterNode } from "../model/memory-filter.js";
import type { RecallHit } from "../model/recall.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { lexicalTerms } from "../language/text.js";
import { planOutcomes, planNames } from "./plan-outcome.js";
import { answersToQuestions } from "./answers-to-questions.js";

/** How many of the namespace's best lexical matches for a plan's names are read to find its report. */
export const REPORT_SEARCH_DEPTH = 20;

/**
 * A planned hit whose report is not among the recall's candidates: the later
 * turn that tells of it as done is looked for in the whole namespace, by the
 * plan's place and names ("Tokyo" for "I'm going back to Tokyo in May") — one
 * lexical search per such hit, so a plan stays marked planned only until a
 * later turn of its speaker reports it, wherever that turn ranks. A plan that
 * names no place or name is left to the candidates (its words alone match
 * too much of a namespace).
 */
export async function findPlanReports(store: MemoryStore, namespace: string, hits: readonly RecallHit[], where?: FilterNode): Promise<RecallHit[]> {
  const open = hits.filter((h) => h.unit.context.planned && !h.unit.planOutcome && planNames(h.unit).size > 0);
  if (open.length === 0) return [...hits];
  const reports = await reportsOfPlans(store, namespace, open.map((h) => h.unit), where);
  return hits.map((h) => {
    const report = reports.get(h.unit.id);
    return report ? { ...h, unit: { ...h.unit, planOutcome: { toldAsDoneBy: report.id, on: report.context.session.start } } } : h;
  });
}

/**
 * For each plan that names a place or a name, the later turn of its speaker
 * that tells of it as done, looked for among the namespace's best lexical
 * matches for those names (one search per plan). Plans without a report are
 * left out of the map.
 */
export async function reportsOfPlans(store: MemoryStore, namespace: string, plans: readonly MemoryUnit[], where?: FilterNode): Promise<Map<string, MemoryUnit>> {
  const found = new Map<string, MemoryUnit>();
  for (const plan of plans) {
    if (!plan.context.planned || planNames(plan).size === 0) continue;
    const ids = await store.searchLexical(namespace, lexicalTerms([...planNames(plan)].join(" ")), REPORT_SEARCH_DEPTH, where ? { where } : {});
    const matches = await store.getUnits(namespace, ids.map((s) => s.id));
    // The other speaker may ask of it by name ("How was Enugu?"): the turn that answers tells of it.
    const asked = matches.filter((u) => u.context.participants[0] !== plan.context.participants[0] && u.context.session.start > plan.context.session.start);
    const answers = asked.length > 0 ? await answersToQuestions(store, namespace, asked, (u) => u, where) : new Map<string, MemoryUnit>();
    const answerTo = new Map([...answers].map(([questionId, answer]) => [answer.id, asked.find((q) => q.id === questionId)!] as const));
    const candidates = [...matches, ...[...answers.values()].filter((a) => !matches.some((u) => u.id === a.id))];
    const outcome = planOutcomes([plan], candidates, { namesOnly: true, answerTo }).get(plan.id);
    const report = outcome ? candidates.find((u) => u.id === outcome.toldAsDoneBy) : undefined;
    if (report) found.set(plan.id, report);
  }
  return found;
}
