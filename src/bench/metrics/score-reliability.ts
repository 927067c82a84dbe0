export interface ScoredHit {
  score: number;
  /** The hit covers an evidence turn of its question. */
  evidence: boolean;
}

export interface ReliabilityBand {
  /** [from, to) of the score; the last band includes 1. */
  from: number;
  to: number;
  hits: number;
  meanScore: number;
  /** The share of the band's hits that are evidence: what a calibrated score's mean should equal. */
  evidenceShare: number;
}

export interface ScoreReliability {
  hits: number;
  /** The share of all hits that are evidence. */
  baseRate: number;
  bands: ReliabilityBand[];
  /** Expected calibration error: the hit-weighted mean of |mean score − evidence share| over the bands. */
  ece: number;
}

/** A question's top `depth` hits as scored hits: evidence when a hit covers one of its evidence turns. */
export function scoredHits(
  hits: ReadonlyArray<{ score: number; unit: { provenance: { turnIds: readonly string[] } } }>,
  evidenceTurnIds: readonly string[],
  depth: number,
): ScoredHit[] {
  return hits.slice(0, depth).map((h) => ({ score: h.score, evidence: h.unit.provenance.turnIds.some((t) => evidenceTurnIds.includes(t)) }));
}

/** Ten equal bands of width 0.1: the usual binning of an expected calibration error. */
export const RELIABILITY_EDGES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;

/** Does a score of s mean "evidence s of the time"? A reliability table and its expected calibration error. */
export function scoreReliability(hits: readonly ScoredHit[], edges: readonly number[] = RELIABILITY_EDGES): ScoreReliability {
  const bands: ReliabilityBand[] = [];
  let gap = 0;
  for (let i = 0; i + 1 < edges.length; i++) {
    const [from, to] = [edges[i]!, edges[i + 1]!];
    const last = i + 2 === edges.length;
    const inBand = hits.filter((h) => h.score >= from && (h.score < to || (last && h.score <= to)));
    if (!inBand.length) continue;
    const meanScore = inBand.reduce((a, h) => a + h.score, 0) / inBand.length;
    const evidenceShare = inBand.filter((h) => h.evidence).length / inBand.length;
    bands.push({ from, to, hits: inBand.length, meanScore, evidenceShare });
    gap += inBand.length * Math.abs(meanScore - evidenceShare);
  }
  return {
    hits: hits.length,
    baseRate: hits.length ? hits.filter((h) => h.evidence).length / hits.length : Number.NaN,
    bands,
    ece: hits.length ? gap / hits.length : Number.NaN,
  };
}
