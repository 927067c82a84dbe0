/**
 * What a question counts or totals: "How many different types of citrus
 * fruits have I used…" → "citrus fruits"; "…the total amount I spent on
 * luxury items…" → "luxury" (an item names no category). The evidence names the members ("lime
 * juice", "a designer handbag"), rarely the category; retrieval adds the
 * category's kinds to the lexical channel (language/kinds-of.ts).
 *
 * Only the phrase right after "how many" (past "different", "types of",
 * "pieces of"…) up to the verb, or after "spent on": other aggregating
 * questions ("which came first…") name their events, not a category.
 */
const HOW_MANY = /\bhow many\s+(?:(?:different|distinct|separate|other)\s+)?(?:(?:types?|kinds?|sorts?|pieces?|items?|varieties|brands?|makes?)\s+of\s+)?([a-z][a-z' -]*?)\s+(?:did|do|does|have|has|had|are|were|is|was|will|would|can|could|i|we|you|he|she|they|in|on|at|from|since|during|that|which|so|this|last|over|for|to)\b/i;
const SPENT_ON = /\b(?:spent|spend|spending)\s+on\s+([a-z][a-z' -]*?)(?:\s+(?:in|since|over|during|this|last|for|at|from|so)\b|[?.!,]|$)/i;

/** Words that say how a count is counted, never what ("how many times", "how many days"), and heads that name no category ("luxury items"). */
const MEASURES = new Set(["item", "items", "object", "objects", "stuff", "time", "times", "day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours", "minute", "minutes", "thing", "things", "ways", "people", "total", "amount", "money", "more", "of", "the", "my", "our", "your", "their", "his", "her"]);

/** The phrase the question counts, or null. */
export function countedNoun(query: string): string | null {
  const m = HOW_MANY.exec(query) ?? SPENT_ON.exec(query);
  if (!m) return null;
  const words = m[1]!
    .toLowerCase()
    // "art-related events", "bike-related expenses": the event or expense is what is counted.
    .replace(/\b[a-z]+-(?:related|based|themed)\b/g, " ")
    .split(/[\s-]+/)
    .filter((w) => w.length > 0 && !MEASURES.has(w));
  return words.length > 0 ? words.join(" ") : null;
}
