import type { MemoryUnit } from "../model/memory-unit.js";
import type { RecallHit } from "../model/recall.js";
import type { ReinstatedCandidate } from "./reinstate.js";
import { finalScores, type ScoreWeights } from "./final-score.js";
import { keyWordShare, type KeyWord } from "./judge-evidence.js";
import { planOutcomes } from "./plan-outcome.js";
import type { Validity } from "../anchoring/derive-validity.js";

export interface ToHitsOptions {
  /** The validity of units that state a state, when the caller derived it. */
  validityOf?: (unitId: string) => Validity | undefined;
  /** Where a plan's report is looked for: the content pool (default: the units given, which may hold every state unit of the namespace). */
  pool?: readonly MemoryUnit[];
  /** A statement hanging on a superseded state (retrieval/dependent-facts.ts), when the caller derived validity. */
  mayBeOutdatedOf?: (unit: MemoryUnit) => MemoryUnit["mayBeOutdated"];
  /** The query's key words (judge-evidence.ts › queryKeyWords): the score reads the share each unit holds. */
  keyWords?: readonly KeyWord[];
  /** How many content candidates the recall had: the score reads a small store from it. */
  poolSize?: number;
  /** The score model for this ranking (default SCORE_WEIGHTS; CONTENT_SCORE_WEIGHTS for one in content order). */
  weights?: ScoreWeights;
}

/** Joins ranked candidates with their units; reasons say which frame conditions each met and which channels found it. */
export function toHits(ranked: readonly ReinstatedCandidate[], units: readonly MemoryUnit[], options: ToHitsOptions = {}): RecallHit[] {
  const { validityOf, pool = units, mayBeOutdatedOf, keyWords = [], poolSize, weights } = options;
  const byId = new Map(units.map((u) => [u.id, u]));
  // Deleted between search and fetch: dropped before scoring, so ranks and scores stay consecutive.
  const present = ranked.filter((c) => byId.has(c.unitId));
  const scores = finalScores(present, {
    keyShareOf: (id) => keyWordShare(keyWords, byId.get(id)!),
    ...(poolSize !== undefined ? { poolSize } : {}),
    ...(weights ? { weights } : {}),
    // What superseded the unit, or one of its states ("…and I live in Leeds", then the move).
    ...(validityOf ? { supersededByOf: (id: string) => validityOf(id)?.supersededBy ?? validityOf(id)?.ended?.[0]?.supersededBy ?? null } : {}),
  });
  // A plan and the later turn that tells of it as done, read off the candidates.
  const outcomes = planOutcomes(present.map((c) => byId.get(c.unitId)!), pool);
  const hits: RecallHit[] = [];
  for (const [i, c] of present.entries()) {
    const stored = byId.get(c.unitId)!;
    // The validity travels with the hit's unit, so every face and the evidence pack can show it: a
    // copy, since the namespace snapshot keeps the original for later recalls (slot-statements.ts).
    const kept = validityOf?.(c.unitId);
    const validity = kept ? structuredClone(kept) : undefined;
    const planOutcome = outcomes.get(c.unitId);
    const outdated = mayBeOutdatedOf?.(stored);
    const unit = { ...stored, ...(validity ? { validity } : {}), ...(planOutcome ? { planOutcome } : {}), ...(outdated ? { mayBeOutdated: outdated } : {}) };
    const channels: string[] = [];
    if (c.lexical) channels.push(`lexical #${c.lexical.rank}`);
    if (c.dense) channels.push(`dense #${c.dense.rank}`);
    if (c.kinds) channels.push(`kinds of "${c.kinds.of}" #${c.kinds.rank}`);
    hits.push({
      unit,
      rank: hits.length + 1,
      score: scores[i]!,
      contentScore: c.score,
      channels: { ...(c.lexical ? { lexical: c.lexical } : {}), ...(c.dense ? { dense: c.dense } : {}) },
      reasons: [...(c.contextReasons.length ? [`context: ${c.contextReasons.join(", ")}`] : []), `content: ${channels.join(", ")}`],
    });
  }
  return hits;
}
