/**
 * A question about one occurrence of an event that happened more than once:
 * "her first trip to Japan", "his second race", "the most recent concert",
 * "the last time she visited her parents", "after her first trip" (the one
 * after it). The cue only says which position and what kind of event; stage 2
 * grounds it against the history (ground-occurrence.ts) and activates it only
 * when the occurrences are found.
 *
 * An ordinal counts as a cue only in front of the event it orders ("her first
 * trip", "the last time …"): "which did I do first" compares two events
 * (aggregate-cue.ts) and "when did she first go" asks for a time.
 */
export interface OccurrenceCue {
  /** 1 = first, 2 = second, …; -1 = the last, -2 = the one before the last. */
  ordinal: number;
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
// "her first trip to Japan", "the most recent race", "his second job interview"
const BEFORE_EVENT = new RegExp(`\\b(after\\s+)?(?:the|her|his|their|my|your|our|its|\\p{Lu}\\p{Ll}+['’]s)\\s+(${ORDINAL})\\s+(?!time\\b|one\\b|of\\b)([\\p{L}\\p{N}-]+(?:\\s+(?!and\\b|or\\b|when\\b|before\\b|after\\b|with\\b|since\\b|did\\b|was\\b|were\\b|is\\b)[\\p{L}\\p{N}'’-]+){0,5})`, "iu");
// "the last time she swam at Sentosa", "the first time he met Sam"
const TIME_CLAUSE = new RegExp(`\\b(after\\s+)?the\\s+(${ORDINAL})\\s+time\\s+(?:that\\s+)?([\\p{L}\\p{N}'’-]+(?:\\s+[\\p{L}\\p{N}'’-]+){0,5})`, "iu");
// "the time before" the last one
const TIME_BEFORE = /\bthe time before\b/i;

// A span of time ("the first weekend of August", "the last two months") is a time condition's business.
const TIME_SPAN = /^(?:\p{N}+|two|three|four|five|six|few|couple|half|year|month|week|weekend|day|night|hour|season|quarter|spring|summer|autumn|fall|winter|decade|century)s?\b/iu;
// "our previous conversation" points at a chat, not at one of several events.
const CHAT = /^(?:conversation|chat|session|discussion|message|question|answer|reply)s?\b/i;
// Words that end the event phrase: the rest of the question, not the event.
const TRAILING = /(?:\s+(?:on|about|in|at|of|a|an|the|to|for|from|that|is|was|were|be|been))+$/i;

export function findOccurrenceCue(query: string): OccurrenceCue | null {
  const text = query.replace(/[?!.]+\s*$/, "");
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
    return { ordinal, event, evidence: m[0].trim() };
  }
  const before = TIME_BEFORE.exec(text);
  if (before) return { ordinal: -2, event: text.slice(0, before.index).replace(/^\s*(?:what|where|who|how|when|which)\b[^,]*?\b(?:did|was|were|do|does)\s+/i, "").trim(), evidence: before[0] };
  return null;
}
