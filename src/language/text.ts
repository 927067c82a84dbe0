/**
 * Plain-text helpers for lexical search. No stemming here: the store's FTS5
 * index uses the porter tokenizer, which stems queries and documents alike.
 */

/**
 * English function words plus the question scaffolding of recall queries
 * ("when did ... do", "what is ..."), which would otherwise match every turn.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "aren't", "as", "at",
  "be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
  "can", "can't", "cannot", "could", "couldn't",
  "did", "didn't", "do", "does", "doesn't", "doing", "don't", "down", "during",
  "each", "either", "else", "ever",
  "few", "for", "from", "further",
  "get", "gets", "got", "had", "hadn't", "has", "hasn't", "have", "haven't", "having", "he", "he'd", "he'll", "he's",
  "her", "here", "here's", "hers", "herself", "him", "himself", "his", "how", "how's",
  "i", "i'd", "i'll", "i'm", "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "itself",
  "just", "let's", "me", "might", "more", "most", "much", "must", "mustn't", "my", "myself",
  "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over", "own",
  "same", "shall", "shan't", "she", "she'd", "she'll", "she's", "should", "shouldn't", "so", "some", "such",
  "than", "that", "that's", "the", "their", "theirs", "them", "themselves", "then", "there", "there's", "these", "they",
  "they'd", "they'll", "they're", "they've", "this", "those", "through", "to", "too",
  "under", "until", "up", "upon", "us", "very",
  "was", "wasn't", "we", "we'd", "we'll", "we're", "we've", "were", "weren't",
  "what", "what's", "whatever", "when", "when's", "where", "where's", "which", "while", "who", "who's", "whom", "whose",
  "why", "why's", "will", "with", "won't", "would", "wouldn't",
  "you", "you'd", "you'll", "you're", "you've", "your", "yours", "yourself", "yourselves",
  // Conversational filler.
  "yeah", "yes", "oh", "ok", "okay", "hey", "hi", "hello", "um", "uh", "like", "really", "also", "well", "lol",
  // Recall-query scaffolding.
  "tell", "kind", "kinds",
]);

// Letters (any script), digits and inner apostrophes/hyphens stay; everything else splits.
const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

const NON_ASCII = /[^\x00-\x7f]/;

function tokens(text: string): string[] {
  // ASCII is its own NFKC form; normalizing it anyway was a tenth of tokenizing a recall's pool.
  return (NON_ASCII.test(text) ? text.normalize("NFKC") : text).toLowerCase().match(TOKEN) ?? [];
}

/** Lowercased, deduplicated content words for a BM25 query, in first-seen order. */
export function lexicalTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tokens(text)) {
    const t = raw.includes("’") ? raw.replace(/’/g, "'") : raw;
    if (STOPWORDS.has(t)) continue;
    // "Caroline's" → "caroline": the possessive would not match the bare name.
    const base = t.endsWith("'s") ? t.slice(0, -2) : t;
    if (base === "" || STOPWORDS.has(base) || seen.has(base)) continue;
    seen.add(base);
    out.push(base);
  }
  return out;
}

export function countWords(text: string): number {
  return tokens(text).length;
}

/** A turn's sentences: split after . ! or ? and at line breaks (a list in a message is one item a line). */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/);
}

/** `s` as a literal inside a regular expression: every metacharacter escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
