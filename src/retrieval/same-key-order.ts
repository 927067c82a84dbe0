import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import { resolveSubject, timeOf } from "../anchoring/derive-validity.js";
import { SAME_KEY, attributeAgreement, queryNamesAttribute } from "../language/attribute-key.js";
import { stemmedTerms } from "../language/stemmed-terms.js";
import { isSubjectAsked } from "../induction/state-subject.js";
import type { ContentCandidate } from "./content-recall.js";

/** How much of an open attribute's words the query must name for its statements to answer it. */
export const KEY_NAMED = 0.6;

/**
 * Open-world states (language/extract-open-states.ts) are no named slot a
 * question can ask by name ("how long have I been using my Fitbit?"): the
 * candidates that state a thing the query names — most of its words — of
 * the subject asked, answer it. For the present value (frame.currentState,
 * or no time asked at all) the newest such statement goes first — after the statements of a named
 * slot that step 9 put first, if any; for a past time (the frame's, or the
 * caller's validAt) the one said last before then does. The others keep
 * their places: a reordering, never an exclusion, so every candidate stays
 * in the list. First, not merely before the older value: a candidate that
 * only shares the question's words (a plan, a question about the thing)
 * otherwise still stands above the answer.
 */
export function sameKeyNewestFirst(
  ordered: ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  options: { query: string; validAt?: string; aliasOf?: ReadonlyMap<string, string> },
  /** How many candidates at the head of `ordered` a named slot's states already put first (they stay ahead). */
  keepFirst: number,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  if (!frame) return ordered;
  const past = options.validAt ?? (isReliable(frame.time) && !frame.currentState ? frame.time!.window.end : null);
  // No time asked: the value that holds now is what the question means — unless it asks for one
  // occurrence of a sequence, or aggregates over all of them.
  if (!frame.currentState && past === null && (isReliable(frame.occurrence ?? null) || frame.aggregates)) return ordered;
  const queryStems = stemmedTerms(options.query);
  const aliasOf = options.aliasOf ?? new Map<string, string>();
  const statingOf = (asked: RecallFrame["stateSubject"] | null) => {
    const found: Array<{ at: number; said: string; attribute: string; subject: string; value: string; candidate: ContentCandidate }> = [];
    for (const [at, c] of ordered.entries()) {
      const u = unitOf(c.unitId);
      const named = (u?.context.states ?? []).find(
        (s) => s.open && !s.ends && queryNamesAttribute(s.slot, queryStems) >= KEY_NAMED && isSubjectAsked(asked ?? null, s.subject, u!.context.participants[0] ?? "", aliasOf),
      );
      if (u && named) found.push({ at, said: timeOf(u), attribute: named.slot, subject: resolveSubject(named.subject, aliasOf), value: named.value, candidate: c });
    }
    return found;
  };
  // The subject asked, when some candidate states the thing of them; else anyone's.
  const ofAsked = statingOf(frame.stateSubject ?? null);
  const stating = ofAsked.length > 0 ? ofAsked : statingOf(null);
  // One subject's statements of one thing: the best-ranked one's.
  const lead = stating[0];
  // The same subject's statements of the lead's key (attributeAgreement: "spanish group" is "spanish", "gym visits" is no "gym class").
  const same = stating.filter((s) => s.subject === lead?.subject && attributeAgreement(s.attribute, lead.attribute) >= SAME_KEY);
  if (!lead || new Set(same.map((s) => s.value)).size < 2) return ordered;
  const answer =
    past === null
      ? same.reduce((a, b) => (b.said > a.said ? b : a))
      : same.filter((s) => Date.parse(s.said) <= Date.parse(past)).reduce<(typeof same)[number] | null>((a, b) => (!a || b.said > a.said ? b : a), null);
  if (!answer) return ordered;
  const reasons = reasonsOf.get(answer.candidate.unitId) ?? [];
  reasons.unshift(`states the ${answer.attribute} ${past === null ? "last (the newest of its values)" : `valid on ${past.slice(0, 10)}`}`);
  reasonsOf.set(answer.candidate.unitId, reasons);
  for (const s of same) {
    if (s === answer) continue;
    const list = reasonsOf.get(s.candidate.unitId) ?? [];
    list.push(`${s.said < answer.said ? "an earlier" : "a later"} value of the ${s.attribute} (stated ${s.said.slice(0, 10)})`);
    reasonsOf.set(s.candidate.unitId, list);
  }
  const rest = ordered.filter((c) => c !== answer.candidate);
  // The best-ranked statement's place, or the head (after a named slot's answers), whichever is higher.
  const leadAt = answer === lead ? lead.at : rest.indexOf(lead.candidate);
  const at = Math.min(leadAt, keepFirst);
  return [...rest.slice(0, at), answer.candidate, ...rest.slice(at)];
}
