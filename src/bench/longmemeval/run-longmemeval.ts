import type { Anchorer } from "../../anchoring/anchorer.js";
import type { BenchProgress } from "../bench-progress.js";
import type { Embedder } from "../../providers/embedder.js";
import { runRecall } from "../../retrieval/recall-pipeline.js";
import type { RecallFrame } from "../../model/recall-frame.js";
import type { RecallHit } from "../../model/recall.js";
import type { EvidenceJudgment } from "../../retrieval/judge-evidence.js";
import {
  abstentionScore,
  scoreReliability,
  scoredHits,
  type AbstentionRow,
  type ScoredHit,
  type ScoreReliability,
  type AbstentionScore,
  freshFirst,
  freshFirstPerType,
  olderEvidenceMarked,
  summarizeLongMemEval,
  type FreshFirstRow,
  type FreshFirstScore,
  type LongMemEvalRow,
  type LongMemEvalSummary,
  type OlderEvidenceMarked,
  type OlderEvidenceRow,
} from "../metrics/index.js";
import { recallSettings, resolveVariants, type BenchVariant } from "../variants.js";
import { prepareBench, sourceOptions, type PreparedBench, type PrepareOptions } from "../prepare-bench.js";

/** The question type whose answer is the newest of several stated values (fresh-first is scored on it). */
const KNOWLEDGE_UPDATE = "knowledge-update";

export interface LongMemEvalBenchOptions {
  dataPath: string;
  ks: number[];
  variants: string[];
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  limit?: number;
  onProgress?: BenchProgress;
  /** Store location instead of the SQLite cache file (e.g. a postgres:// URL); see prepareBench. */
  store?: string;
  /** Ingest in worker processes; see PrepareOptions. */
  workers?: number;
  providerNames?: PrepareOptions["providerNames"];
  /**
   * A second LongMemEval file of abstention questions (ids ending `_abs`, e.g. longmemeval_s_abs15.json):
   * recalled like the others, and scored only for the abstain judgment, against the answerable questions of dataPath.
   */
  abstentionPath?: string;
}

/** One line of longmemeval-questions.jsonl: what each variant ranked for a question, and where its gold landed. */
export interface LongMemEvalQuestionTrace {
  questionId: string;
  questionType: string;
  question: string;
  questionDate: string | null;
  goldSessions: string[];
  goldTurns: string[];
  variants: Record<
    string,
    {
      frame: RecallFrame | null;
      /** 1-based rank of each gold session / turn in this variant's ranking (null: not in the top `depth`). */
      goldRanks: { sessions: Record<string, number | null>; turns: Record<string, number | null> };
      top: Array<{ rank: number; unitId: string; sessionId: string; sessionStart: string; turnIds: string[]; role: string | null; gold: boolean; reasons: string[]; text: string }>;
    }
  >;
}

/** How many hits of each question the score's reliability is read from (as on LoCoMo). */
export const SCORED_DEPTH = 20;

/** How many hits per variant the trace keeps. */
export const TRACE_TOP = 10;

export interface LongMemEvalBenchResult {
  data: string;
  ks: number[];
  questions: number;
  variants: Array<{
    name: string;
    session: LongMemEvalSummary;
    turn: LongMemEvalSummary;
    /** Knowledge-update questions whose newest evidence session ranks above the older ones (see metrics/fresh-first.ts). */
    freshFirst: FreshFirstScore;
    /** Fresh-first on every question type with questions of two or more answer sessions (knowledge-update is the headline above). */
    freshFirstPerType: Record<string, FreshFirstScore>;
    /**
     * Knowledge-update questions: of the top-10 hits covering an evidence turn of an answer session older than the newest,
     * the share whose validity marks them as no longer valid (see metrics/fresh-first.ts › olderEvidenceMarked).
     */
    olderEvidenceMarked: OlderEvidenceMarked;
    /** The abstain judgment (holdsEvidence) and the top score: answerable questions against those whose answer was never said. */
    abstention: AbstentionScore;
    /** Does a score mean what it says? The top SCORED_DEPTH hits of every answerable question, evidence when they cover a has_answer turn. */
    scoreReliability: ScoreReliability;
  }>;
  /** The abstention file recalled beside dataPath (abstentionPath), or null. */
  abstentionData: string | null;
  timing: { ingestSeconds: number; retrievalSeconds: number };
  /** Texts the ingest embedded, texts the embedding cache served, and the worker processes. */
  embedding: { embedded: number; cached: number; workers: number };
  cachePath: string;
  /** What counts as gold at each level (the report prints it). */
  gold: { session: string; turn: string };
  /** Per question (written as JSONL, not into results.json). */
  traces: LongMemEvalQuestionTrace[];
}

export const GOLD_DEFINITION = {
  session: "the question's answer_session_ids",
  turn:
    "turns flagged has_answer, of either role (user or assistant; single-session-assistant gold is the assistant's turn). " +
    "LongMemEval's own turn-level scripts and plain BM25 baselines usually index user turns only; here every turn is a unit, so assistant turns compete too",
};

/**
 * Each LongMemEval question has its own haystack, so each is its own
 * namespace. Units are ranked once; the session-level ranking is the order in
 * which sessions first appear among them, the turn-level one the order of
 * their provenance turns.
 */
export async function runLongMemEvalBench(options: LongMemEvalBenchOptions): Promise<LongMemEvalBenchResult> {
  const variants = resolveVariants(options.variants);
  const prepared = await prepareBench({ ...sourceOptions(options), format: "longmemeval", ...(options.limit !== undefined ? { limit: options.limit } : {}) });
  const depth = Math.max(...options.ks);
  const started = performance.now();
  const rows = new Map(
    variants.map((v) => [
      v.name,
      { session: [] as LongMemEvalRow[], turn: [] as LongMemEvalRow[], fresh: [] as FreshFirstRow[], freshByType: [] as Array<FreshFirstRow & { questionType: string }>, older: [] as OlderEvidenceRow[], abstention: [] as AbstentionRow[], scored: [] as ScoredHit[] },
    ]),
  );
  const corpus = new Map(prepared.conversations.map((c) => [c.namespace, c]));
  const traces: LongMemEvalQuestionTrace[] = [];
  for (const [i, q] of prepared.questions.entries()) {
    const haystack = corpus.get(q.namespace)!;
    const trace: LongMemEvalQuestionTrace = {
      questionId: q.id,
      questionType: String(q.category),
      question: q.question,
      questionDate: q.questionDate ?? null,
      goldSessions: q.answerSessionIds ?? [],
      goldTurns: q.evidence,
      variants: {},
    };
    traces.push(trace);
    for (const v of variants) {
      const { hits, frame, holdsEvidence } = await recallQuestion(prepared, q, v, depth);
      const slot = rows.get(v.name)!;
      const type = String(q.category);
      slot.abstention.push(abstentionRow(q, hits, holdsEvidence));
      const rankedSessions = unique(hits.map((h) => h.unit.provenance.sessionId));
      const rankedTurns = unique(hits.flatMap((h) => h.unit.provenance.turnIds));
      slot.session.push({ questionId: q.id, questionType: type, rankedIds: rankedSessions, answerIds: trace.goldSessions, corpusIds: haystack.sessions.map((s) => s.session.id) });
      slot.turn.push({ questionId: q.id, questionType: type, rankedIds: rankedTurns, answerIds: q.evidence, corpusIds: haystack.sessions.flatMap((s) => s.turns.map((t) => t.id)) });
      if (!q.id.includes("_abs")) {
        slot.scored.push(...scoredHits(hits, q.evidence, SCORED_DEPTH));
        const dateOf = new Map(haystack.sessions.map((s) => [s.session.id, s.session.startTime]));
        const answerSessions = trace.goldSessions.filter((id) => dateOf.has(id)).map((id) => ({ id, date: dateOf.get(id)! }));
        slot.freshByType.push({ questionType: type, rankedSessions, answerSessions });
        if (type === KNOWLEDGE_UPDATE) {
          slot.fresh.push({ rankedSessions, answerSessions });
          const sessionOf = prepared.sessionOfTurn.get(q.namespace);
          slot.older.push({
            answerSessions,
            evidence: q.evidence.flatMap((turnId) => {
              const sessionId = sessionOf?.get(turnId);
              return sessionId === undefined ? [] : [{ turnId, sessionId }];
            }),
            hits: hits.map((h) => ({
              sessionId: h.unit.provenance.sessionId,
              turnIds: h.unit.provenance.turnIds,
              validity: h.unit.validity ? { validTo: h.unit.validity.validTo, supersededBy: h.unit.validity.supersededBy } : null,
            })),
          });
        }
      }
      const rankOf = (ranked: string[], id: string) => (ranked.indexOf(id) >= 0 ? ranked.indexOf(id) + 1 : null);
      trace.variants[v.name] = {
        frame,
        goldRanks: {
          sessions: Object.fromEntries(trace.goldSessions.map((id) => [id, rankOf(rankedSessions, id)])),
          turns: Object.fromEntries(q.evidence.map((id) => [id, rankOf(rankedTurns, id)])),
        },
        top: hits.slice(0, TRACE_TOP).map((h) => ({
          rank: h.rank,
          unitId: h.unit.id,
          sessionId: h.unit.provenance.sessionId,
          sessionStart: h.unit.context.session.start,
          turnIds: h.unit.provenance.turnIds,
          role: h.unit.context.role ?? null,
          gold: h.unit.provenance.turnIds.some((t) => q.evidence.includes(t)),
          reasons: h.reasons,
          text: h.unit.content.length > 240 ? `${h.unit.content.slice(0, 240)} …` : h.unit.content,
        })),
      };
    }
    options.onProgress?.(i + 1, prepared.questions.length, "recalled", "questions");
  }
  await prepared.memory.close();
  if (options.abstentionPath) {
    const abstaining = await prepareBench({ ...sourceOptions({ ...options, dataPath: options.abstentionPath }), format: "longmemeval" });
    // Only its abstention questions: an answerable one there would count twice against the data file's.
    const never = abstaining.questions.filter((q) => q.id.endsWith("_abs"));
    for (const [i, q] of never.entries()) {
      for (const v of variants) {
        const { hits, holdsEvidence } = await recallQuestion(abstaining, q, v, depth);
        rows.get(v.name)!.abstention.push(abstentionRow(q, hits, holdsEvidence));
      }
      options.onProgress?.(i + 1, never.length, "recalled (abstention)", "questions");
    }
    await abstaining.memory.close();
  }
  return {
    data: options.dataPath,
    ks: options.ks,
    questions: prepared.questions.length,
    variants: variants.map((v) => ({
      name: v.name,
      session: summarizeLongMemEval(rows.get(v.name)!.session, options.ks),
      turn: summarizeLongMemEval(rows.get(v.name)!.turn, options.ks),
      freshFirst: freshFirst(rows.get(v.name)!.fresh),
      freshFirstPerType: freshFirstPerType(rows.get(v.name)!.freshByType),
      olderEvidenceMarked: olderEvidenceMarked(rows.get(v.name)!.older),
      abstention: abstentionScore(rows.get(v.name)!.abstention),
      scoreReliability: scoreReliability(rows.get(v.name)!.scored),
    })),
    abstentionData: options.abstentionPath ?? null,
    timing: { ingestSeconds: prepared.ingestSeconds, retrievalSeconds: (performance.now() - started) / 1000 },
    embedding: prepared.embedding,
    cachePath: prepared.cachePath,
    gold: GOLD_DEFINITION,
    traces,
  };
}

/** One question's recall with one variant, over the prepared store it was ingested into. */
function recallQuestion(
  prepared: Pick<PreparedBench, "memory" | "queryVectors">,
  q: { namespace: string; question: string; questionDate?: string },
  variant: BenchVariant,
  depth: number,
) {
  return runRecall(prepared.memory, {
    namespace: q.namespace,
    query: q.question,
    k: depth,
    ...recallSettings(variant),
    queryVector: prepared.queryVectors.get(q.question)!,
    ...(q.questionDate ? { questionDate: q.questionDate } : {}),
  });
}

/** LongMemEval marks a question whose answer was never said by an id ending `_abs`; a right top hit covers an evidence turn or an answer session. */
function abstentionRow(q: { id: string; evidence: string[]; answerSessionIds?: string[] }, hits: readonly RecallHit[], judgment: EvidenceJudgment): AbstentionRow {
  const top = hits[0];
  const rightTop = Boolean(top && (top.unit.provenance.turnIds.some((t) => q.evidence.includes(t)) || (q.answerSessionIds ?? []).includes(top.unit.provenance.sessionId)));
  return { abstains: q.id.endsWith("_abs"), rightTop, judgment, topScore: top?.score ?? 0 };
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
