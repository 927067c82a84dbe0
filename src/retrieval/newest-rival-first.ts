import type { MemoryUnit } from "../model/memory-unit.js";
import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import { timeOf } from "../anchoring/derive-validity.js";
import { PRESENT_TENSE } from "../induction/current-state-cue.js";
import { asksQuestion } from "./asks-question.js";
import type { ContentCandidate } from "./content-recall.js";

/** How many of the ordered candidates may be rivals: the head a reader takes in. */
const RIVAL_WINDOW = 10;

/**
 * A memory of the frame's subject that one channel ranks among its very first
 * is a rival too, whatever the other says: "My GP dropped me back down to 10
 * mg" is the dense channel's second for "What dose of lisinopril am I on
 * now?" and holds none of its words. Only the subject's: in a small store one
 * channel ranks nearly everything among its first three.
 */
const STRONG_RANK = 3;

/**
 * A turn that ends in a question but tells something first ("I've had this
 * Fairphone for nearly three years, is it worth replacing the battery?", "I've
 * got a secondhand iPhone 13 now. How do I move my chats?") states a value as
 * much as one that ends in a full stop: only a turn that asks and tells
 * nothing before it is no rival.
 */
function onlyAsks(unit: MemoryUnit): boolean {
  if (!asksQuestion(unit)) return false;
  const sentences = unit.content.split(/(?<=[.!])\s+/);
  return !sentences.slice(0, -1).some((s) => s.split(/\s+/).length >= 4) && !/,\s*(?:is|are|do|does|should|can|could|would|will)\s+\S+[^,]*\?\s*$/i.test(unit.content);
}

/**
 * A question about what holds now, when no named slot's rule read a state from
 * the words ("four months in with the iPhone", "the Spanish group's still on
 * Wednesdays", "58 minutes on the reservoir loop"), or an open-world rule read
 * only older ones (it read "six months" of the Kobo, not "a year into the
 * Kobo now"): the statements that answer it as well as one another are
 * rivals, and the newest of them is the one that holds. Rivals are candidates
 * near the head that both channels rank among their first `depth` — the same
 * words and the same meaning as the query — or, said by the subject, one
 * among its first STRONG_RANK, that state rather than ask, and
 * that the frame's subject said (context-valid) when any rival is. The newest takes the best rival's place;
 * the others move down one, so the list keeps its members: a reordering, not
 * a bonus (a bonus by recency pushed other evidence out of the top K:
 * docs/experiments.md › Sequences).
 */
export function newestRivalFirst(
  ordered: ContentCandidate[],
  frame: RecallFrame | null,
  unitOf: (unitId: string) => MemoryUnit | undefined,
  contextValid: ReadonlySet<string>,
  depth: number,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  if (depth <= 0 || !frame?.currentState || isReliable(frame.occurrence ?? null)) return ordered;
  // Only a question that says "now" ("currently", "these days", "still", "how long have I…") expects a value that
  // changed: a plain present-tense one is as often about a habit, whose every statement holds ("What does Melanie do
  // to destress?"). A count with "now" is such a value too ("How many records does Rohan have at the moment?": 85,
  // 120, then 97): the newest goes first, the others stay in the list for a sum over them.
  if (frame.currentState.evidence === PRESENT_TENSE) return ordered;
  const rivals: Array<{ at: number; said: string; candidate: ContentCandidate }> = [];
  for (const [at, c] of ordered.slice(0, RIVAL_WINDOW).entries()) {
    const u = unitOf(c.unitId);
    const lexical = c.lexical?.rank ?? Number.POSITIVE_INFINITY;
    const dense = c.dense?.rank ?? Number.POSITIVE_INFINITY;
    const alike = lexical <= depth && dense <= depth;
    // One channel alone vouches only for a memory of the frame's own subject (context-valid).
    if (!u || onlyAsks(u) || !(alike || (Math.min(lexical, dense) <= STRONG_RANK && contextValid.has(c.unitId)))) continue;
    rivals.push({ at, said: timeOf(u), candidate: c });
  }
  const own = rivals.filter((r) => contextValid.has(r.candidate.unitId));
  const field = own.length > 0 ? own : rivals;
  if (field.length < 2) return ordered;
  const newest = field.reduce((a, b) => (b.said > a.said ? b : a));
  const first = field[0]!;
  if (newest === first || newest.said === first.said) return ordered;
  const reasons = reasonsOf.get(newest.candidate.unitId) ?? [];
  reasons.unshift(`the newest of ${field.length} memories that match the question alike (said ${newest.said.slice(0, 10)})`);
  reasonsOf.set(newest.candidate.unitId, reasons);
  const rest = ordered.filter((c) => c !== newest.candidate);
  return [...rest.slice(0, first.at), newest.candidate, ...rest.slice(first.at)];
}
