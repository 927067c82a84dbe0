/**
 * Finds "before/after <event>" in a query when the event is named rather than
 * dated ("after the adoption meeting"). Locating the event in memory is the
 * caller's job (InductionContext.locateEvent); this only reads the phrase.
 */
import { lexicalTerms } from "../language/text.js";

export interface EventAnchorCue {
  relation: "before" | "after";
  /** The event as written, determiner kept ("the adoption meeting"): the locator searches memory with it. */
  phrase: string;
  /** Query span [start, end) of relation word plus phrase. */
  span: [number, number];
  /** An offset chrono saw in front ("two weeks" in "two weeks before the wedding"); kept for the note only. */
  offset?: string;
}

const CUE =
  /(?:\b((?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+)\s+(?:days?|weeks?|months?|years?)|the\s+(?:day|week|month|year|night|morning|weekend))\s+)?\b(before|after|since|following|prior to)\s+([^?.!,;:]+)/dgi;
// The phrase ends where the question's own clause starts again ("after the wedding did she ...").
const CLAUSE_END = /\s+\b(did|does|do|was|were|is|are|has|have|had|will|would|could|can|should|when|while|because|and then)\b/i;
// Words after "before/after" that point back into the conversation, not to an event.
const NOT_AN_EVENT = /^(that|then|this|it|all|which|what|how|when|where|why|each other|one another|him|her|them|me|us|you)\b/i;

export function findEventAnchor(query: string, timeSpans: [number, number][]): EventAnchorCue | null {
  for (const m of query.matchAll(CUE)) {
    const word = (m[2] ?? "").toLowerCase();
    const raw = m[3] ?? "";
    const cut = raw.search(CLAUSE_END);
    const phrase = (cut < 0 ? raw : raw.slice(0, cut)).trim();
    if (phrase === "" || NOT_AN_EVENT.test(phrase) || lexicalTerms(phrase).length === 0) continue;
    const relStart = m.indices?.[2]?.[0] ?? m.index ?? 0;
    const phraseStart = m.indices?.[3]?.[0] ?? relStart;
    const span: [number, number] = [relStart, phraseStart + phrase.length];
    // A dated phrase ("before May 2023") is the date condition's business.
    if (timeSpans.some(([s, e]) => s < span[1] && phraseStart < e)) continue;
    const relation = word === "before" || word === "prior to" ? "before" : "after";
    const cue: EventAnchorCue = { relation, phrase, span };
    if (m[1]) cue.offset = m[1];
    return cue;
  }
  return null;
}
