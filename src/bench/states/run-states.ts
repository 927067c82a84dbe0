import type { Anchorer } from "../../anchoring/anchorer.js";
import type { Embedder } from "../../providers/embedder.js";
import { runRecall } from "../../retrieval/recall-pipeline.js";
import { prepareBench, sourceOptions, type PrepareOptions } from "../prepare-bench.js";
import { recallSettings, resolveVariants } from "../variants.js";
import type { BenchProgress } from "../bench-progress.js";
import { mean } from "../metrics/internal.js";

export interface StatesBenchOptions {
  dataPath: string;
  variants: string[];
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  k?: number;
  onProgress?: BenchProgress;
  workers?: number;
  providerNames?: PrepareOptions["providerNames"];
}

export interface StatesKindSummary {
  n: number;
  /** Share of questions whose rank-1 memory covers a valid evidence turn. */
  validAt1: number;
  /** Share whose best stale memory (a superseded state, another occurrence) ranks above the best valid one. */
  staleFirst: number;
  /** Share with a valid evidence turn in the top k. */
  validAtK: number;
}

export interface StatesBenchResult {
  data: string;
  k: number;
  questions: number;
  variants: Array<{ name: string; overall: StatesKindSummary; perKind: Record<string, StatesKindSummary> }>;
  /** Per question and variant: rank of the first valid and of the first stale memory (null: not in the top k). */
  ranks: Array<{ questionId: string; kind: string; question: string; variants: Record<string, { valid: number | null; stale: number | null }> }>;
}

/**
 * The state/sequence set (datasets/ramem-states, LoCoMo format with
 * `kind` and `stale_evidence` per question): does the currently valid state,
 * the state valid then, or the asked-for occurrence rank first — above the
 * superseded statements and the other occurrences that share its words?
 */
export async function runStatesBench(options: StatesBenchOptions): Promise<StatesBenchResult> {
  const k = options.k ?? 10;
  const variants = resolveVariants(options.variants);
  const prepared = await prepareBench({ ...sourceOptions(options), format: "locomo" });
  const questions = prepared.questions.filter((q) => q.validity);
  const ranks: StatesBenchResult["ranks"] = [];
  for (const [i, q] of questions.entries()) {
    const row: StatesBenchResult["ranks"][number] = { questionId: q.id, kind: q.validity!.kind, question: q.question, variants: {} };
    for (const v of variants) {
      const { hits } = await runRecall(prepared.memory, {
        namespace: q.namespace,
        query: q.question,
        k,
        ...recallSettings(v),
        queryVector: prepared.queryVectors.get(q.question)!,
      });
      const first = (ids: readonly string[]) => {
        const at = hits.findIndex((h) => h.unit.provenance.turnIds.some((t) => ids.includes(t)));
        return at < 0 ? null : at + 1;
      };
      row.variants[v.name] = { valid: first(q.evidence), stale: first(q.validity!.staleEvidence) };
    }
    ranks.push(row);
    options.onProgress?.(i + 1, questions.length, "recalled", "questions");
  }
  await prepared.memory.close();
  const summarize = (rows: typeof ranks, name: string): StatesKindSummary => {
    const r = rows.map((x) => x.variants[name]!);
    return {
      n: r.length,
      validAt1: mean(r.map((x) => (x.valid === 1 ? 1 : 0))),
      staleFirst: mean(r.map((x) => (x.stale !== null && (x.valid === null || x.stale < x.valid) ? 1 : 0))),
      validAtK: mean(r.map((x) => (x.valid !== null ? 1 : 0))),
    };
  };
  const kinds = [...new Set(ranks.map((r) => r.kind))].sort();
  return {
    data: options.dataPath,
    k,
    questions: questions.length,
    variants: variants.map((v) => ({
      name: v.name,
      overall: summarize(ranks, v.name),
      perKind: Object.fromEntries(kinds.map((kind) => [kind, summarize(ranks.filter((r) => r.kind === kind), v.name)])),
    })),
    ranks,
  };
}
