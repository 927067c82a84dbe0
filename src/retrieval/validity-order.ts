import type { RecallFrame } from "../model/recall-frame.js";
import type { Validity } from "../anchoring/derive-validity.js";
import type { ContentCandidate } from "./content-recall.js";
import { validSpan } from "./valid-span.js";

/**
 * History, not the answer: a statement not valid at the asked time — superseded, for a
 * current-state query (frame.currentState, with successorLift on); outside its validity
 * interval, for validAt — never ranks above what superseded it: it follows it (the change
 * read together, "Porto, since …; Lisbon, before"), or goes last when that is not in the
 * list. Never dropped; each says why in its reasons. Unchanged without validityOf, or when
 * neither a time nor the current state is asked.
 */
export function staleBehindSuccessors(
  ordered: ContentCandidate[],
  frame: RecallFrame | null,
  options: { validityOf?: (unitId: string) => Validity | undefined; validAt?: string },
  successorLift: number,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const asksNow = Boolean(frame?.currentState) && successorLift > 0;
  if (!(options.validityOf && (options.validAt || asksNow))) return ordered;
  const validityOf = options.validityOf;
  const at = options.validAt ? Date.parse(options.validAt) : null;
  const notValid = (v: Validity) => {
    if (at === null) return v.supersededBy !== null;
    const { from, to } = validSpan(v);
    return !(from <= at && at < to);
  };
  const stale = (c: ContentCandidate) => {
    const v = validityOf(c.unitId);
    return v !== undefined && notValid(v);
  };
  for (const c of ordered.filter(stale)) {
    const v = validityOf(c.unitId)!;
    const why =
      at !== null && Date.parse(v.validFrom) > at
        ? `not yet valid on ${options.validAt!.slice(0, 10)} (stated ${v.validFrom.slice(0, 10)})`
        : `superseded${v.validTo ? ` on ${v.validTo.slice(0, 10)}` : ""} by ${v.supersededBy}${v.origin === "user" ? " (a user's correction)" : ""}`;
    reasonsOf.get(c.unitId)!.push(why);
  }
  const fresh = ordered.filter((c) => !stale(c));
  const freshIds = new Set(fresh.map((c) => c.unitId));
  const behind = new Map<string, ContentCandidate[]>();
  const last: ContentCandidate[] = [];
  for (const c of ordered.filter(stale)) {
    // Along a chain (Lisbon → Porto → Braga) the first successor still in the list.
    let successor = validityOf(c.unitId)?.supersededBy ?? null;
    for (let step = 0; successor !== null && !freshIds.has(successor) && step < 4; step++) successor = validityOf(successor)?.supersededBy ?? null;
    if (successor !== null && freshIds.has(successor)) behind.set(successor, [...(behind.get(successor) ?? []), c]);
    else last.push(c);
  }
  return [...fresh.flatMap((c) => [c, ...(behind.get(c.unitId) ?? [])]), ...last];
}
