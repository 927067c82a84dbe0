import type { MemoryStore } from "../store/contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { FilterNode } from "../model/memory-filter.js";
import { asksQuestion } from "./asks-question.js";

/** For each candidate that asks a question, the unit that follows it in its session (the store's nextUnits, or the session as listed in order). */
export async function answersToQuestions(
  store: MemoryStore,
  namespace: string,
  candidates: readonly MemoryUnit[],
  withContext: (u: MemoryUnit) => MemoryUnit,
  where?: FilterNode,
): Promise<Map<string, MemoryUnit>> {
  const questions = candidates.filter(asksQuestion);
  if (store.nextUnits && !where) {
    // The store finds each answer itself (a filter is applied by listing the session, below).
    const following = await store.nextUnits(namespace, questions.map((q) => q.id));
    return new Map(questions.flatMap((q) => (following.has(q.id) ? [[q.id, withContext(following.get(q.id)!)] as const] : [])));
  }
  const sessions = [...new Set(questions.map((u) => u.provenance.sessionId))];
  const listed = await Promise.all(sessions.map((sessionId) => store.listUnits(namespace, { sessionId, ...(where ? { where } : {}) })));
  const next = new Map<string, MemoryUnit>();
  for (const inOrder of listed) inOrder.forEach((u, i) => i + 1 < inOrder.length && next.set(u.id, withContext(inOrder[i + 1]!)));
  return new Map(questions.flatMap((q) => (next.has(q.id) ? [[q.id, next.get(q.id)!] as const] : [])));
}
