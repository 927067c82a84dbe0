import { assertPositiveInteger } from "./internal.js";

export const LONGMEMEVAL_KS: readonly number[] = [1, 3, 5, 10, 30, 50];

export interface LongMemEvalAtK {
  recallAny: number;
  recallAll: number;
  ndcgAny: number;
}

/**
 * DCG exactly as LongMemEval's eval_utils.dcg: rel[0] + Σ_{i≥1} rel[i]/log2(i+1)
 * (0-based i), so ranks 1 and 2 are both undiscounted. This differs from the
 * textbook 1/log2(rank+1); kept to stay comparable with published numbers.
 */
function dcg(relevances: readonly number[], k: number): number {
  let total = 0;
  const end = Math.min(k, relevances.length);
  for (let i = 0; i < end; i++) total += i === 0 ? relevances[0]! : relevances[i]! / Math.log2(i + 1);
  return total;
}

/**
 * recall_any@k, recall_all@k and ndcg_any@k of one ranking, mirroring
 * LongMemEval's `evaluate_retrieval` (session or turn ids alike).
 *
 * The ideal DCG there counts relevant items in the whole corpus. Pass
 * `corpusIds` (all haystack ids) to reproduce that exactly; without it the
 * number of distinct answer ids stands in, which is the same whenever every
 * answer id is in the corpus, and keeps a truncated ranking from inflating nDCG.
 * As in Python's any()/all(), an empty answer set gives recallAny 0 and
 * recallAll 1 (abstention questions are skipped by the summary anyway).
 */
export function longMemEvalRetrieval(
  rankedIds: readonly string[],
  answerIds: Iterable<string>,
  ks: readonly number[] = LONGMEMEVAL_KS,
  corpusIds?: readonly string[],
): Record<number, LongMemEvalAtK> {
  const answers = new Set(answerIds);
  const relevantInCorpus = corpusIds ? corpusIds.filter((id) => answers.has(id)).length : answers.size;
  const relevances = rankedIds.map((id) => (answers.has(id) ? 1 : 0));
  const out: Record<number, LongMemEvalAtK> = {};
  for (const k of ks) {
    assertPositiveInteger("k", k);
    const top = new Set(rankedIds.slice(0, k));
    const found = [...answers].filter((a) => top.has(a)).length;
    const ideal = dcg(new Array<number>(Math.min(k, relevantInCorpus)).fill(1), k);
    out[k] = {
      recallAny: found > 0 ? 1 : 0,
      recallAll: found === answers.size ? 1 : 0,
      ndcgAny: ideal === 0 ? 0 : dcg(relevances, k) / ideal,
    };
  }
  return out;
}
