// Shared by the tuning scripts: LoCoMo's scored questions (categories 1–4
// with evidence) with cached query vectors, and content-only Recall@K of one
// fusion setting on a store the benchmark filled.
import type { Embedder } from "../src/providers/embedder.js";
import type { MemoryStore } from "../src/store/contract.js";
import { contentRecall, type FusionWeights } from "../src/retrieval/content-recall.js";
import { readConversationFile } from "../src/formats/conversation-file.js";
import { embedWithCache } from "../src/bench/vector-cache.js";
import { summarizeRetrieval, type QuestionRetrieval } from "../src/bench/metrics/index.js";

export async function loadScoredQuestions(embedder: Embedder, dataPath: string, queriesPath: string) {
  const { conversations } = await readConversationFile(dataPath, { format: "locomo" });
  const questions = conversations.flatMap((c) => c.questions ?? []).filter((q) => Number(q.category) <= 4 && q.evidence.length);
  const vectors = await embedWithCache(embedder, queriesPath, questions.map((q) => q.question));
  return { questions, vectors };
}

export async function contentRecallSummary(
  store: MemoryStore,
  embedder: Embedder,
  { questions, vectors }: Awaited<ReturnType<typeof loadScoredQuestions>>,
  fusion: FusionWeights,
) {
  const rows: QuestionRetrieval[] = [];
  for (const q of questions) {
    const ranked = await contentRecall({ store, embedder }, q.question, { namespace: q.namespace, pool: 30, fusion, queryVector: vectors.get(q.question)! });
    const units = await store.getUnits(q.namespace, ranked.map((c) => c.unitId));
    rows.push({ questionId: q.id, category: Number(q.category), evidenceTurnIds: q.evidence, evidenceSessionIds: [], ranked: units.map((u) => ({ unitId: u.id, sessionId: u.provenance.sessionId, turnIds: u.provenance.turnIds })) });
  }
  return summarizeRetrieval(rows, [10, 20]);
}
