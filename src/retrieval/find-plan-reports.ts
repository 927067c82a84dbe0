import type { MemoryStore } from "../store/contract.js";
import type { FilterNode } from "../model/memory-filter.js";
import type { RecallHit } from "../model/recall.js";
import { lexicalTerms } from "../language/text.js";
import { planOutcomes, planNames } from "./plan-outcome.js";

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
  const found = new Map<string, NonNullable<RecallHit["unit"]["planOutcome"]>>();
  for (const hit of open) {
    const ids = await store.searchLexical(namespace, lexicalTerms([...planNames(hit.unit)].join(" ")), REPORT_SEARCH_DEPTH, where ? { where } : {});
    const reports = await store.getUnits(namespace, ids.map((s) => s.id));
    const outcome = planOutcomes([hit.unit], reports, { namesOnly: true }).get(hit.unit.id);
    if (outcome) found.set(hit.unit.id, outcome);
  }
  return hits.map((h) => (found.has(h.unit.id) ? { ...h, unit: { ...h.unit, planOutcome: found.get(h.unit.id)! } } : h));
}
