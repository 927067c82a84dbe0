/**
 * The lexical channel's query syntax and size thresholds, apart from
 * sqlite-search.ts: the store re-exports them, and a public declaration must
 * name nothing of better-sqlite3 (a consumer need not install its types).
 */

/** Each term becomes a quoted FTS5 string, so user words never act as operators (AND, NEAR, column:). */
export function toFtsQuery(terms: readonly string[]): string | null {
  const parts = terms.map((t) => t.trim()).filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  return parts.length ? parts.join(" OR ") : null;
}

/**
 * From this namespace size on, lexical search leaves out terms that bm25
 * weighs ~0 (informativeTerms): where their postings start to cost more than
 * the rest of a recall (measured on the scale bench: ~60 ms of a 10k
 * namespace's recall is its owner's name).
 */
export const LEXICAL_PRUNE_MIN_UNITS = 5_000;

/**
 * From this namespace size on, an unfiltered lexical search is ranked by the
 * in-memory index (lexical-index.ts: FTS5's bm25, the same order, without
 * FTS5's per-match cost); below, by FTS5 itself.
 */
export const LEXICAL_INDEX_MIN_UNITS = 5_000;

/**
 * From this namespace size on (when it is half of the file or more), the
 * in-memory index reads every term when it is built rather than each when a
 * search first names it: at 1M units a common term's first read is ~50 ms of
 * one search, the whole pass ~5 s once; at 100k the first reads cost a few ms.
 */
export const LEXICAL_READ_ALL_MIN_UNITS = 200_000;
