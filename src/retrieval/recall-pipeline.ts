import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import type { RecallHit } from "../model/recall.js";
import { contentRecall, type FusionWeights } from "./content-recall.js";
import { toHits } from "./to-hits.js";

/** Each ablation of the paper is one switch on this one pipeline, never a fork of it. */
export interface RecallSwitches {
  /** false: the content-only baseline (no frame is induced). */
  frame: boolean;
}

export const CONTENT_ONLY: RecallSwitches = { frame: false };

export interface RecallRequest {
  namespace: string;
  query: string;
  k: number;
  /** Candidates per channel; deeper than k so that context-valid units further down can be reinstated. */
  pool?: number;
  switches?: RecallSwitches;
  fusion?: FusionWeights;
  queryVector?: Float32Array;
  /** When the question was asked (ISO); grounds "last year" in frame induction. */
  questionDate?: string;
}

export interface RecallOutcome {
  hits: RecallHit[];
}

export async function runRecall(deps: { store: MemoryStore; embedder: Embedder }, request: RecallRequest): Promise<RecallOutcome> {
  const pool = Math.max(request.pool ?? 100, request.k);
  const ranked = await contentRecall(deps, request.query, {
    namespace: request.namespace,
    pool,
    ...(request.fusion ? { fusion: request.fusion } : {}),
    ...(request.queryVector ? { queryVector: request.queryVector } : {}),
  });
  const top = ranked.slice(0, request.k);
  return { hits: toHits(top, await deps.store.getUnits(request.namespace, top.map((c) => c.unitId))) };
}
