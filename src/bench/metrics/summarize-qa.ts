import { mean } from "./internal.js";

export interface QaScoreRow {
  category: number;
  official: number;
  simplemem: number;
}

export interface QaCategoryMeans {
  n: number;
  official: number;
  simplemem: number;
}

export interface QaSummary {
  /** Every category seen, 5 included; means over its questions. */
  perCategory: Record<number, QaCategoryMeans>;
  official: {
    /** Unweighted mean of the category 1–4 means present (NaN if none). */
    average: number;
    /** Adversarial questions, reported apart from the average (NaN if none). */
    category5: number;
  };
  simplemem: {
    /** Unweighted mean of the category 1–4 means present; category 5 excluded. */
    average: number;
  };
}

/**
 * The average is macro over categories, as in the paper's tables, so the
 * large single-hop category does not dominate. A missing category is left
 * out of the average rather than counted as 0.
 */
export function summarizeQa(rows: readonly QaScoreRow[]): QaSummary {
  const groups = new Map<number, QaScoreRow[]>();
  for (const r of rows) {
    const g = groups.get(r.category);
    if (g) g.push(r);
    else groups.set(r.category, [r]);
  }
  const perCategory: Record<number, QaCategoryMeans> = {};
  for (const c of [...groups.keys()].sort((a, b) => a - b)) {
    const g = groups.get(c)!;
    perCategory[c] = {
      n: g.length,
      official: mean(g.map((r) => r.official)),
      simplemem: mean(g.map((r) => r.simplemem)),
    };
  }
  const scored = [1, 2, 3, 4].flatMap((c) => perCategory[c] ?? []);
  return {
    perCategory,
    official: {
      average: mean(scored.map((m) => m.official)),
      category5: perCategory[5]?.official ?? Number.NaN,
    },
    simplemem: { average: mean(scored.map((m) => m.simplemem)) },
  };
}
