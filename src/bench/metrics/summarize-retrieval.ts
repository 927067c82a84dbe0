import { assertPositiveInteger, mean } from "./internal.js";
import { retrievalAtK, type RetrievalAtK } from "./retrieval-at-k.js";
import type { QuestionRetrieval } from "./types.js";

export interface RetrievalMeans {
  n: number;
  recall: number;
  hit: number;
  /** Mean reciprocal rank over the whole ranked list (independent of K). */
  mrr: number;
  /** MRR@K: reciprocal ranks below K count as 0. */
  mrrAtK: number;
}

export interface RetrievalSummary {
  ks: number[];
  evaluated: number;
  skipped: {
    /** Questions outside categories 1–4 (adversarial ones, unknown codes). */
    category: number;
    /** Category 1–4 questions without any evidence turn. */
    noEvidence: number;
  };
  /** Keyed by K. */
  overall: Record<number, RetrievalMeans>;
  /** Category → K → means; only categories with evaluated questions appear. */
  perCategory: Record<number, Record<number, RetrievalMeans>>;
}

const SCORED_CATEGORIES = new Set([1, 2, 3, 4]);

function meansOf(rows: readonly RetrievalAtK[]): RetrievalMeans {
  return {
    n: rows.length,
    recall: mean(rows.map((r) => r.recall)),
    hit: mean(rows.map((r) => r.hit)),
    mrr: mean(rows.map((r) => r.reciprocalRank)),
    mrrAtK: mean(rows.map((r) => r.reciprocalRankAtK)),
  };
}

/** Means over questions (micro average) of categories 1–4 that have evidence, per K. */
export function summarizeRetrieval(
  questions: readonly QuestionRetrieval[],
  ks: readonly number[],
): RetrievalSummary {
  for (const k of ks) assertPositiveInteger("k", k);
  const skipped = { category: 0, noEvidence: 0 };
  const scored: QuestionRetrieval[] = [];
  for (const q of questions) {
    if (!SCORED_CATEGORIES.has(q.category)) skipped.category++;
    else if (q.evidenceTurnIds.length === 0) skipped.noEvidence++;
    else scored.push(q);
  }
  const categories = [...new Set(scored.map((q) => q.category))].sort((a, b) => a - b);
  const overall: Record<number, RetrievalMeans> = {};
  const perCategory: Record<number, Record<number, RetrievalMeans>> = {};
  for (const c of categories) perCategory[c] = {};
  for (const k of ks) {
    const rows = scored.map((q) => ({ category: q.category, r: retrievalAtK(q, k) }));
    overall[k] = meansOf(rows.map((x) => x.r));
    for (const c of categories) {
      perCategory[c]![k] = meansOf(rows.filter((x) => x.category === c).map((x) => x.r));
    }
  }
  return { ks: [...ks], evaluated: scored.length, skipped, overall, perCategory };
}
