import { isReliable, type RecallFrame } from "../model/recall-frame.js";
import type { ContentCandidate } from "./content-recall.js";

/** How many of the content ranking's best are kept near the head, whatever the steps before did. */
const CONTENT_KEPT = 2;

/** The places they are kept within: the budget a reader most often takes (K = 10). */
const KEPT_WITHIN = 10;

/**
 * The content ranking's two best memories keep a place in the first ten: the
 * first no lower than ninth, the second no lower than tenth. Frame induction
 * and episode support can be wrong together: "What language does Tim know
 * besides German?" is answered by John ("I know a bit of it myself and
 * Spanish"), and "What are the new shoes that Melanie got used for?" by
 * Caroline's question ("For walking or running?"). Both are content's first
 * or second; the frame's people condition and the support of the asker's own
 * session pushed them to 20th and 27th. Only the last places of ten are
 * taken, so what the frame put first stays first.
 *
 * Not for an aggregating question: its ten places go to the spread over
 * episodes, and a count's evidence is the many memories that spread finds,
 * not the two best matches of its words ("What is the total amount I spent
 * on luxury items…" loses its third item's turn to them).
 *
 * Nor when the frame holds a condition read from the store's own structure:
 * a time grounded against its history, the role of a chat with an assistant,
 * one occurrence of an event. Those put content's best low for a reason: a
 * favourite band stated in 2023 is not the one asked "in 2022", and "Who is
 * my employer these days?" is the user's to say, not the assistant's advice
 * on climbing sessions that content ranks first (kept, that advice pushed
 * the user's "First week at Quayside Digital done!" out of the first ten). A named
 * person is the condition most often wrong: a two-person chat's question
 * names one speaker and the other's reply answers it.
 */
export function keepContentBest(
  ordered: ContentCandidate[],
  contentRanking: readonly ContentCandidate[],
  frame: RecallFrame | null,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  if (frame?.aggregates) return ordered;
  // What the store grounds the frame on — its times, its chat roles, the occurrences of its events — is not second-guessed.
  if (isReliable(frame?.time ?? null) || isReliable(frame?.role ?? null) || isReliable(frame?.occurrence ?? null)) return ordered;
  const kept = [...ordered];
  for (const [rank, best] of contentRanking.slice(0, CONTENT_KEPT).entries()) {
    const lowest = KEPT_WITHIN - CONTENT_KEPT + rank;
    const at = kept.findIndex((c) => c.unitId === best.unitId);
    // Absent: a later step dropped it on purpose (none does today; the list keeps its members).
    if (at <= lowest) continue;
    const [candidate] = kept.splice(at, 1);
    kept.splice(lowest, 0, candidate!);
    const reasons = reasonsOf.get(best.unitId) ?? [];
    // No ", " inside: the reasons are joined with it (rules-applied.ts splits on it).
    reasons.push(`kept in the first ${KEPT_WITHIN} as content #${rank + 1}`);
    reasonsOf.set(best.unitId, reasons);
  }
  return kept;
}
