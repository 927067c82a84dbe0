import { stemmer } from "stemmer";
import { lexicalTerms } from "../language/text.js";

/**
 * The content words of a text as Porter stems, so that "painted" in a query
 * and "painting" in a memory count as one word — as they do in the FTS5
 * index, whose tokenizer is the Porter stemmer too.
 */
export function stemmedTerms(text: string): Set<string> {
  return new Set(lexicalTerms(text).map((t) => stemmer(t)));
}
