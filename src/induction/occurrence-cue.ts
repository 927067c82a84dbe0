/**
 * A question about one occurrence of an event that happened more than once:
 * "her first trip to Japan", "his second race", "the most recent concert",
 * "the last time she visited her parents", "after her first trip" (the one
 * after it), "his next race after the half marathon" and "the trip before the
 * Westfjords one" (counted from another occurrence), "her next race" (the one
 * still ahead: a plan), "did she go to Iceland again" (the repeat). The cue
 * only says which position and what kind of event; stage 2 grounds it against
 * the history (ground-occurrence.ts) and activates it only when the
 * occurrences are found.
 *
 * An ordinal counts as a cue only in front of the event it orders ("her first
 * trip", "the last time …"): "which did I do first" compares two events
 * (aggregate-cue.ts) and "when did she first go" asks for a time.
 */
export interface OccurrenceCue {
  /**
   * How the occurrence is placed: "ordinal" counts from the first or the last;
   * "after"/"before" step from the occurrence `anchor` names; "upcoming" is the
   * one still ahead (told as a plan); "repeat" is the one after the first.
   */
  position: "ordinal" | "after" | "before" | "upcoming" | "repeat";
  /** For "ordinal": 1 = first, 2 = second, …; -1 = the last, -2 = the one before the last. +1/-1 for "after"/"before", 0 for "upcoming", 2 for "repeat". */
  ordinal: number;
  /** For "after"/"before": the occurrence counted from, as the query names it ("the half marathon"). */
  anchor?: string;
  /** The event the ordinal counts ("trip to Japan", "she visited her parents"). */
  event: string;
  /** The query text the cue was read from. */
  evidence: string;
}

const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  last: -1,
  latest: -1,
  "most recent": -1,
  previous: -2,
};

const ORDINAL = "first|second|third|fourth|fifth|last|latest|most recent|previous";
// "her first trip to Japan", "the most recent race", "his second job interview", "my very first market"
const BEFORE_EVENT = new RegExp(`\\b(after\\s+)?(?:the|her|his|their|my|your|our|its|\\p{Lu}\\p{Ll}+['’]s)\\s+(?:very\\s+)?(${ORDINAL})\\s+(?!time\\b|one\\b|of\\b)([\\p{L}\\p{N}-]+(?:\\s+(?!and\\b|or\\b|when\\b|before\\b|after\\b|with\\b|since\\b|did\\b|was\\b|were\\b|is\\b)[\\p{L}\\p{N}'’-]+){0,5})`, "iu");
// "the last time she swam at Sentosa", "the first time he met Sam"
const TIME_CLAUSE = new RegExp(`\\b(after\\s+)?the\\s+(?:very\\s+)?(${ORDINAL})\\s+time\\s+(?:that\\s+)?([\\p{L}\\p{N}'’-]+(?:\\s+[\\p{L}\\p{N}'’-]+){0,5})`, "iu");
// "the time before" the last one
const TIME_BEFORE = /\bthe time before\b(?!\s+(?:the|her|his|their|my|your|our|she|he|they|i|you|we)\b)/i;
// "the time before Snowdonia": the one before the occurrence a name places
const TIME_BEFORE_NAMED = /\bthe time (before|after) ((?:the\s+)?\p{Lu}[\p{L}\p{N}'’-]*(?:\s+\p{Lu}[\p{L}\p{N}'’-]*)*)$/u;
// "Where did Ezra see Harbour Lights the second time?": the ordinal closes the question, whose
// own clause (after its subject) is the event; the verb names no kind of event, what it is done to does.
const CLAUSE_THEN_TIME = new RegExp(
  // Case matters: the subject is a name's capitals or a pronoun (no "i" flag, which would let \\p{Lu} match any letter).
  `^(?:[Ww]hat|[Ww]here|[Ww]ho|[Ww]hom|[Hh]ow|[Ww]hen|[Ww]hich|[Ww]hy)\\b.*?\\b(?:did|do|does|was|were|had|has|have)\\s+(?:\\p{Lu}[\\p{L}'’-]*(?:\\s+\\p{Lu}[\\p{L}'’-]*)*|she|he|they|I|you|we)\\s+(.+?)\\s+the\\s+(${ORDINAL})\\s+time$`,
  "u",
);
// "his next race after the half marathon", "the previous trip before the Westfjords one"
const STEP_FROM = /\b(?:the|her|his|their|my|your|our|\p{Lu}\p{Ll}+['’]s)\s+(next|following|previous|preceding)\s+([\p{L}\p{N}-]+(?:\s+(?!after\b|before\b)[\p{L}\p{N}'’-]+){0,4}?)\s+(after|before)\s+((?:the|her|his|their|my|your|our|\p{Lu}\p{Ll}+['’]s)\s+[\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,4})/iu;
// "the trip after the Jeju one": the same kind of event, counted from the one named
const STEP_FROM_ONE = /\b(?:the|her|his|their|my|your|our|\p{Lu}\p{Ll}+['’]s)\s+([\p{L}\p{N}-]+(?:\s+(?!after\b|before\b)[\p{L}\p{N}'’-]+){0,4}?)\s+(after|before)\s+(the\s+[\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,2}\s+one)\b/iu;
// "her next race", "the upcoming trip": the one still ahead
const UPCOMING = /\b(?:the|her|his|their|my|your|our|\p{Lu}\p{Ll}+['’]s)\s+(?:next|upcoming)\s+(?!time\b|one\b|week\b|month\b|year\b|day\b|weekend\b|morning\b|step\b|steps\b)([\p{L}\p{N}-]+(?:\s+(?!and\b|or\b|when\b|with\b|since\b|is\b|was\b|will\b)[\p{L}\p{N}'’-]+){0,5})/iu;
// "did Ingrid go to Iceland again", "when did she visit her grandmother again"
const AGAIN = /\b(?:(?:did|has|had)\s+(?:\p{Lu}\p{Ll}+|she|he|they|i|you|we)\s+(?:go|visit|travel|run|swim|see|meet|fly|take|return|come|gone|visited|travelled|traveled|run|swum|seen|met|flown|taken|returned|come)|(?:she|he|they|i|you|we|\p{Lu}\p{Ll}+)\s+(?:went|visited|travelled|traveled|ran|swam|saw|met|flew|took|returned|came))\b((?:\s+(?!again\b)[\p{L}\p{N}'’-]+){0,5}?)\s+again\b/iu;

// A span of time ("the first weekend of August", "the last two months", "the second half of 2023") is a time
// condition's business; a half marathon is a race.
const TIME_SPAN = /^(?:\p{N}+|two|three|four|five|six|few|couple|half(?![\s-]+(?:marathon|ironman|iron man)s?\b)|year|month|week|weekend|day|night|hour|season|quarter|spring|summer|autumn|fall|winter|decade|century)s?\b/iu;
// "our previous conversation" points at a chat, not at one of several events.
const CHAT = /^(?:conversation|chat|session|discussion|message|question|answer|reply)s?\b/i;
// Words that end the event phrase: the rest of the question, not the event.
const TRAILING = /(?:\s+(?:on|about|in|at|of|a|an|the|to|for|from|that|is|was|were|be|been))+$/i;

export function findOccurrenceCue(query: string): OccurrenceCue | null {
  const text = query.replace(/[?!.]+\s*$/, "");
  const step = STEP_FROM.exec(text);
  if (step && !TIME_SPAN.test(step[2]!)) {
    const after = step[3]!.toLowerCase() === "after";
    // "the next race before the final" says nothing clear: next/following steps forward, previous/preceding back.
    if (after === /^(?:next|following)$/i.test(step[1]!)) return { position: after ? "after" : "before", ordinal: after ? 1 : -1, event: step[2]!.replace(TRAILING, "").trim(), anchor: step[4]!.replace(TRAILING, "").trim(), evidence: step[0].trim() };
  }
  const one = STEP_FROM_ONE.exec(text);
  if (one && !TIME_SPAN.test(one[1]!)) {
    const after = one[2]!.toLowerCase() === "after";
    return { position: after ? "after" : "before", ordinal: after ? 1 : -1, event: one[1]!.trim(), anchor: one[3]!.trim(), evidence: one[0].trim() };
  }
  for (const re of [TIME_CLAUSE, BEFORE_EVENT]) {
    const m = re.exec(text);
    if (!m) continue;
    // "for the first time" says something was new, not which of several it was; "first and second" compares two.
    if (/\bfor\s+$/i.test(text.slice(0, m.index + (m[0].length - m[0].trimStart().length))) && re === TIME_CLAUSE) continue;
    if (TIME_SPAN.test(m[3]!) || CHAT.test(m[3]!) || /^(?:and|or)\b/i.test(m[3]!)) continue;
    const base = ORDINAL_WORDS[m[2]!.toLowerCase().replace(/\s+/g, " ")]!;
    // "after her first trip": the occurrence after the one named.
    const ordinal = m[1] ? (base > 0 ? base + 1 : base) : base;
    const event = m[3]!.replace(/\s+(?:she|he|they|i|you|we)\s+mentioned$/i, "").replace(TRAILING, "").trim();
    if (!/\p{L}/u.test(event)) continue;
    return { position: "ordinal", ordinal, event, evidence: m[0].trim() };
  }
  const closing = CLAUSE_THEN_TIME.exec(text);
  if (closing) {
    const clause = closing[1]!.replace(/\s+with$/i, "").replace(TRAILING, "").trim();
    // "see Harbour Lights" → "Harbour Lights", "go to Jazz Cerkno" → "Jazz Cerkno"; a bare verb stays.
    const object = clause.replace(/^[\p{L}'’-]+\s+(?:(?:back\s+)?(?:to|at|in|on|for|with|from)\s+)?/iu, "").trim();
    const event = /\p{L}/u.test(object) && object !== clause ? object : clause;
    // "What did I do the last time?" names no event.
    if (/\p{L}/u.test(event) && !TIME_SPAN.test(event) && !/^(?:do|go|get|have|be|happen|say|mention|talk|feel|think|like)$/i.test(event)) return { position: "ordinal", ordinal: ORDINAL_WORDS[closing[2]!.toLowerCase().replace(/\s+/g, " ")]!, event, evidence: closing[0].trim() };
  }
  const upcoming = UPCOMING.exec(text);
  if (upcoming && !TIME_SPAN.test(upcoming[1]!) && !CHAT.test(upcoming[1]!)) {
    const event = upcoming[1]!.replace(TRAILING, "").trim();
    if (/\p{L}/u.test(event)) return { position: "upcoming", ordinal: 0, event, evidence: upcoming[0].trim() };
  }
  const again = AGAIN.exec(text);
  // The verb's object is the event ("go to Iceland again": "Iceland"); the verb itself names no kind of event.
  if (again && /\p{L}/u.test(again[1]!)) return { position: "repeat", ordinal: 2, event: again[1]!.replace(/^\s*(?:to|back to|back)\s+/i, "").replace(TRAILING, "").trim(), evidence: again[0].trim() };
  const named = TIME_BEFORE_NAMED.exec(text);
  if (named) {
    const event = text.slice(0, named.index).replace(/^\s*(?:what|where|who|how|when|which)\b[^,]*?\b(?:did|was|were|do|does)\s+(?:\p{Lu}[\p{L}'’-]*|she|he|they|i|you|we)\s+/iu, "").replace(/^(?:go|went|do|did)\s+/i, "").trim();
    const after = named[1]!.toLowerCase() === "after";
    if (/\p{L}/u.test(event)) return { position: after ? "after" : "before", ordinal: after ? 1 : -1, event, anchor: named[2]!, evidence: named[0] };
  }
  const before = TIME_BEFORE.exec(text);
  if (before) return { position: "ordinal", ordinal: -2, event: text.slice(0, before.index).replace(/^\s*(?:what|where|who|how|when|which)\b[^,]*?\b(?:did|was|were|do|does)\s+/i, "").trim(), evidence: before[0] };
  return null;
}
