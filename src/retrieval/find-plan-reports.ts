import type { MemoryStore } from "../store/contract.js";
import type { FilterNode } from "../model/memory-filter.js";
import type { RecallHit } from "../model/recall.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { planNames } from "./plan-outcome.js";
import { reportsOfPlans } from "./reports-of-plans.js";

/**
 * A planned hit whose report is not among the recall's candidates: the later
 * turn that tells of it as done is looked for in the whole namespace, by the
 * plan's place and names ("Tokyo" for "I'm going back to Tokyo in May") — one
 * lexical search per such hit, so a plan stays marked planned only until a
 * later turn of its speaker reports it, wherever that turn ranks. A plan that
 * names no place or name is left to the candidates (its words alone match
 * too much of a namespace).
 */
export async function findPlanReports(
  store: MemoryStore,
  namespace: string,
  hits: readonly RecallHit[],
  where?: FilterNode,
  /** The recall's reports looked up already (reportsOfPlans' `seen`). */
  seen?: Map<string, MemoryUnit | null>,
): Promise<RecallHit[]> {
  const open = hits.filter((h) => h.unit.context.planned && !h.unit.planOutcome && planNames(h.unit).size > 0);
  if (open.length === 0) return [...hits];
  const reports = await reportsOfPlans(store, namespace, open.map((h) => h.unit), where, seen);
  return hits.map((h) => {
    const report = reports.get(h.unit.id);
    return report ? { ...h, unit: { ...h.unit, planOutcome: { toldAsDoneBy: report.id, on: report.context.session.start } } } : h;
  });
}
