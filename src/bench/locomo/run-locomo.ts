import type { Anchorer } from "../../anchoring/anchorer.js";
import type { BenchProgress } from "../bench-progress.js";
import type { Embedder } from "../../providers/embedder.js";
import type { LanguageModel } from "../../providers/language-model.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import type { BenchmarkQuestion } from "../../formats/conversation-file.js";
import { runRecall } from "../../retrieval/recall-pipeline.js";
import { renderEvidence } from "../../synthesis/render-evidence.js";
import { answerFromEvidence } from "../../synthesis/answer.js";
import {
  abstentionScore,
  scoreReliability,
  scoredHits,
  confusableSubset,
  type AbstentionRow,
  type AbstentionScore,
  type ScoredHit,
  type ScoreReliability,
  distractionMetrics,
  officialLocomoF1,
  simpleMemF1,
  summarizeQa,
  summarizeRetrieval,
  type DistractionMetrics,
  type QaScoreRow,
  type QaSummary,
  type QuestionRetrieval,
  type RetrievalSummary,
} from "../metrics/index.js";
import { recallSettings, BASELINE_VARIANT, resolveVariants, type BenchVariant } from "../variants.js";
import { prepareBench, sourceOptions, type PrepareOptions } from "../prepare-bench.js";
import { shuffledContexts } from "../shuffle-contexts.js";

export interface LocomoBenchOptions {
  dataPath: string;
  ks: number[];
  variants: string[];
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  languageModel?: LanguageModel;
  /** At most this many questions per category are answered by the LLM (QA is slow and costs tokens). */
  qaLimit?: number;
  /** Restrict to some conversations (sample ids). */
  conversations?: string[];
  onProgress?: BenchProgress;
  /** Store location instead of the SQLite cache file (e.g. a postgres:// URL); see prepareBench. */
  store?: string;
  /** Ingest in worker processes; see PrepareOptions. */
  workers?: number;
  providerNames?: PrepareOptions["providerNames"];
}

export interface VariantResult {
  name: string;
  description: string;
  retrieval: RetrievalSummary;
  /** Mean tokens of the top-K evidence pack, as the generator would see it, per K. */
  tokensAtK: Record<number, number>;
  distraction: DistractionMetrics;
  /** The abstain judgment and the top score: categories 1–4 against the adversarial category 5 (answer not in the conversation). */
  abstention: AbstentionScore;
  /** Does a score mean what it says? The top CONFUSABLE_K (20) hits of every question of categories 1–4 with evidence. */
  scoreReliability: ScoreReliability;
  /** ramem-llm-frame only: the frame calls made, their tokens, and how many fell back to the rule frame. */
  frameLlm?: { calls: number; promptTokens: number; completionTokens: number; failed: number };
  qa?: QaSummary & { calls: number; promptTokens: number; completionTokens: number; answered: number };
}

export interface LocomoBenchResult {
  data: string;
  ks: number[];
  questions: number;
  /** The context-confusable subset, fixed from the content-only baseline. */
  confusable: { size: number; k: number; ids: string[] };
  variants: VariantResult[];
  evidence: { dropped: number; repaired: number; droppedIds: Array<{ questionId: string; raw: string; reason: string }> };
  qaSkipped: string | null;
  timing: { ingestSeconds: number; retrievalSeconds: number; qaSeconds: number };
  cachePath: string;
}

/** Depth of the baseline ranking used to fix the context-confusable subset (RAMEM.md). */
const CONFUSABLE_K = 20;
/** QA uses the paper's budget. */
const QA_K = 10;

export async function runLocomoBench(options: LocomoBenchOptions): Promise<LocomoBenchResult> {
  const variants = resolveVariants(options.variants, { withLlm: options.languageModel !== undefined });
  // The confusable subset is always fixed from the baseline, even when the baseline is not asked for.
  const scored: BenchVariant[] = variants.some((v) => v.name === BASELINE_VARIANT) ? variants : [...resolveVariants([BASELINE_VARIANT]), ...variants];
  const only = options.conversations?.length ? new Set(options.conversations) : null;
  const prepared = await prepareBench({ ...sourceOptions(options), format: "locomo", ...(only ? { only: (ns: string) => only.has(ns) } : {}) });
  const { memory, questions } = prepared;
  const depth = Math.max(...options.ks, CONFUSABLE_K);

  const retrievalStarted = performance.now();
  const perVariant = new Map<string, { rows: QuestionRetrieval[]; units: Map<string, MemoryUnit[]>; abstention: AbstentionRow[]; scored: ScoredHit[]; frameLlm?: NonNullable<VariantResult["frameLlm"]> }>(
    scored.map((v) => [v.name, { rows: [], units: new Map(), abstention: [], scored: [], ...(v.llmFrame ? { frameLlm: { calls: 0, promptTokens: 0, completionTokens: 0, failed: 0 } } : {}) }]),
  );
  const shuffles = new Map<string, (u: MemoryUnit) => MemoryUnit["context"]>();
  if (scored.some((v) => v.shuffleContext)) {
    for (const c of prepared.conversations) shuffles.set(c.namespace, shuffledContexts(await memory.store.listUnits(c.namespace)));
  }
  for (const [i, q] of questions.entries()) {
    const sessions = prepared.sessionOfTurn.get(q.namespace)!;
    const evidenceTurnIds = q.evidence.filter((t) => sessions.has(t));
    for (const v of scored) {
      const { hits, frameRefinement, holdsEvidence } = await runRecall(memory, {
        namespace: q.namespace,
        query: q.question,
        k: depth,
        ...recallSettings(v),
        queryVector: prepared.queryVectors.get(q.question)!,
        ...(q.questionDate ? { questionDate: q.questionDate } : {}),
        ...(v.shuffleContext ? { contextOverride: shuffles.get(q.namespace)! } : {}),
        ...(v.llmFrame && options.languageModel ? { frameModel: options.languageModel } : {}),
      });
      const slot = perVariant.get(v.name)!;
      if (slot.frameLlm && frameRefinement) {
        slot.frameLlm.calls += frameRefinement.usage.calls;
        slot.frameLlm.promptTokens += frameRefinement.usage.promptTokens;
        slot.frameLlm.completionTokens += frameRefinement.usage.completionTokens;
        if (frameRefinement.warning) slot.frameLlm.failed += 1;
      }
      slot.units.set(q.id, hits.map((h) => h.unit));
      const category = Number(q.category);
      if (category >= 1 && category <= 4 && evidenceTurnIds.length) {
        slot.scored.push(...scoredHits(hits, evidenceTurnIds, CONFUSABLE_K));
      }
      if (category >= 1 && category <= 5) {
        const top = hits[0];
        slot.abstention.push({ abstains: category === 5, rightTop: Boolean(top?.unit.provenance.turnIds.some((t) => evidenceTurnIds.includes(t))), judgment: holdsEvidence, topScore: top?.score ?? 0 });
      }
      slot.rows.push({
        questionId: q.id,
        category: Number(q.category),
        evidenceTurnIds,
        evidenceSessionIds: evidenceTurnIds.map((t) => sessions.get(t)!),
        ranked: hits.map((h) => ({ unitId: h.unit.id, sessionId: h.unit.provenance.sessionId, turnIds: h.unit.provenance.turnIds })),
      });
    }
    if (i % 25 === 0 || i === questions.length - 1) options.onProgress?.(i + 1, questions.length, "recalled", "questions");
  }
  const retrievalSeconds = (performance.now() - retrievalStarted) / 1000;

  const scoredRows = (rows: QuestionRetrieval[]) => rows.filter((r) => r.category >= 1 && r.category <= 4 && r.evidenceTurnIds.length > 0);
  const subset = confusableSubset(scoredRows(perVariant.get(BASELINE_VARIANT)!.rows), CONFUSABLE_K);

  const qaStarted = performance.now();
  const results: VariantResult[] = [];
  for (const v of scored) {
    const slot = perVariant.get(v.name)!;
    const rows = scoredRows(slot.rows);
    const tokensAtK: Record<number, number> = {};
    for (const k of options.ks) {
      const total = rows.reduce((n, r) => n + renderEvidence(slot.units.get(r.questionId)!.slice(0, k), { mode: v.rendering }).tokens, 0);
      tokensAtK[k] = rows.length ? total / rows.length : Number.NaN;
    }
    const result: VariantResult = {
      name: v.name,
      description: v.description,
      retrieval: summarizeRetrieval(slot.rows, options.ks),
      tokensAtK,
      distraction: distractionMetrics(slot.rows, subset, CONFUSABLE_K),
      abstention: abstentionScore(slot.abstention),
      scoreReliability: scoreReliability(slot.scored),
      ...(slot.frameLlm ? { frameLlm: slot.frameLlm } : {}),
    };
    if (options.languageModel) {
      result.qa = await answerAll(options.languageModel, v, questions, slot.units, options.qaLimit, options.onProgress);
    }
    results.push(result);
  }

  await memory.close();
  return {
    data: options.dataPath,
    ks: options.ks,
    questions: questions.length,
    confusable: { size: subset.length, k: CONFUSABLE_K, ids: subset },
    variants: results.filter((r) => options.variants.includes(r.name) || r.name === BASELINE_VARIANT),
    evidence: {
      dropped: prepared.evidence.dropped.length,
      repaired: prepared.evidence.repaired?.length ?? 0,
      droppedIds: prepared.evidence.dropped,
    },
    qaSkipped: options.languageModel ? null : "no LLM configured (set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL to score QA F1)",
    timing: { ingestSeconds: prepared.ingestSeconds, retrievalSeconds, qaSeconds: (performance.now() - qaStarted) / 1000 },
    cachePath: prepared.cachePath,
  };
}

async function answerAll(
  model: LanguageModel,
  variant: BenchVariant,
  questions: readonly BenchmarkQuestion[],
  unitsOf: Map<string, MemoryUnit[]>,
  limit: number | undefined,
  onProgress: LocomoBenchOptions["onProgress"],
): Promise<NonNullable<VariantResult["qa"]>> {
  const perCategory = new Map<number, number>();
  const chosen = questions.filter((q) => {
    const c = Number(q.category);
    const n = perCategory.get(c) ?? 0;
    perCategory.set(c, n + 1);
    return limit === undefined || n < limit;
  });
  const rows: QaScoreRow[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  for (const [i, q] of chosen.entries()) {
    const category = Number(q.category);
    const pack = renderEvidence(unitsOf.get(q.id)!.slice(0, QA_K), { mode: variant.rendering });
    const answer = await answerFromEvidence(model, q.question, pack, { mode: variant.rendering, ...(q.questionDate ? { questionDate: q.questionDate } : {}) });
    promptTokens += answer.usage.promptTokens;
    completionTokens += answer.usage.completionTokens;
    const gold = category === 5 ? (q.adversarialAnswer ?? "") : (q.answer ?? "");
    rows.push({ category, official: officialLocomoF1(answer.text, gold, category), simplemem: simpleMemF1(answer.text, gold) });
    onProgress?.(i + 1, chosen.length, `QA ${variant.name}`, "answers");
  }
  return { ...summarizeQa(rows), calls: chosen.length, promptTokens, completionTokens, answered: rows.length };
}
