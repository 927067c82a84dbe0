import { mean } from "./internal.js";
import { LONGMEMEVAL_KS, longMemEvalRetrieval, type LongMemEvalAtK } from "./longmemeval-metrics.js";

export interface LongMemEvalRow {
  questionId: string;
  questionType: string;
  /** Session ids or turn ids, best first; one granularity per summary call. */
  rankedIds: string[];
  answerIds: string[];
  /** All haystack ids at the same granularity, for the exact ideal DCG. */
  corpusIds?: string[];
}

export interface LongMemEvalMeans extends LongMemEvalAtK {
  n: number;
}

export interface LongMemEvalSummary {
  ks: number[];
  evaluated: number;
  /** Abstention questions (`_abs` in the id), skipped as the official scripts do. */
  skippedAbstention: number;
  /** Keyed by k; mean over questions. */
  overall: Record<number, LongMemEvalMeans>;
  /** questionType → k → means. */
  perType: Record<string, Record<number, LongMemEvalMeans>>;
}

function meansOf(rows: readonly LongMemEvalAtK[]): LongMemEvalMeans {
  return {
    n: rows.length,
    recallAny: mean(rows.map((r) => r.recallAny)),
    recallAll: mean(rows.map((r) => r.recallAll)),
    ndcgAny: mean(rows.map((r) => r.ndcgAny)),
  };
}

export function summarizeLongMemEval(
  rows: readonly LongMemEvalRow[],
  ks: readonly number[] = LONGMEMEVAL_KS,
): LongMemEvalSummary {
  let skippedAbstention = 0;
  const scored: { type: string; m: Record<number, LongMemEvalAtK> }[] = [];
  for (const r of rows) {
    if (r.questionId.includes("_abs")) {
      skippedAbstention++;
      continue;
    }
    scored.push({ type: r.questionType, m: longMemEvalRetrieval(r.rankedIds, r.answerIds, ks, r.corpusIds) });
  }
  const types = [...new Set(scored.map((s) => s.type))].sort();
  const overall: Record<number, LongMemEvalMeans> = {};
  const perType: Record<string, Record<number, LongMemEvalMeans>> = {};
  for (const t of types) perType[t] = {};
  for (const k of ks) {
    overall[k] = meansOf(scored.map((s) => s.m[k]!));
    for (const t of types) {
      perType[t]![k] = meansOf(scored.filter((s) => s.type === t).map((s) => s.m[k]!));
    }
  }
  return { ks: [...ks], evaluated: scored.length, skippedAbstention, overall, perType };
}
