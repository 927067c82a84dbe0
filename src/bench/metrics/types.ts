/** One retrieved unit as the metrics see it. */
export interface RankedUnit {
  unitId: string;
  sessionId: string;
  /** Provenance: the source turns this unit was built from. */
  turnIds: string[];
}

export interface QuestionRetrieval {
  questionId: string;
  /** LoCoMo category: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
  category: number;
  evidenceTurnIds: string[];
  /** session id of each evidence turn */
  evidenceSessionIds: string[];
  /** Best first, exactly as the retriever returned them. */
  ranked: RankedUnit[];
}
