import { stemmer } from "stemmer";
import { lexicalTerms, STOPWORDS } from "./text.js";

/** How many words' stems are remembered; past it the memo starts over (a conversation's vocabulary is far smaller). */
export const STEM_MEMO_SIZE = 50_000;

const stems = new Map<string, string>();

/**
 * The content words of a text as Porter stems, so that "painted" in a query
 * and "painting" in a memory count as one word — as they do in the FTS5
 * index, whose tokenizer is the Porter stemmer too. Each word is stemmed
 * once: a recall stems the text of every candidate in its pool, mostly
 * words it has stemmed before, and the stemmer was ~4 % of a 100k recall.
 */
export function stemmedTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of lexicalTerms(text)) out.add(stemOf(word));
  return out;
}

/**
 * The same, and a compound's parts beside it ("self-portrait" gives
 * self-portrait, self and portrait), as if the text were read a second time
 * with its hyphens as spaces — in one pass over it.
 */
export function stemmedTermsWithParts(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of lexicalTerms(text)) {
    out.add(stemOf(word));
    if (!word.includes("-")) continue;
    for (const piece of word.split("-")) {
      if (STOPWORDS.has(piece)) continue;
      const part = piece.endsWith("'s") ? piece.slice(0, -2) : piece;
      if (part !== "" && !STOPWORDS.has(part)) out.add(stemOf(part));
    }
  }
  return out;
}

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= STEM_MEMO_SIZE) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}
