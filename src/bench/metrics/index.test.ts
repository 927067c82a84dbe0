import { test } from "node:test";
import assert from "node:assert/strict";
import * as metrics from "./index.js";

test("index re-exports every public function", () => {
  const names = Object.keys(metrics).sort();
  assert.deepEqual(names, [
    "LONGMEMEVAL_KS",
    "OLDER_EVIDENCE_DEPTH",
    "RELIABILITY_EDGES",
    "abstentionScore",
    "auroc",
    "confusableSubset",
    "countTokens",
    "distractionMetrics",
    "evidenceProbabilityOf",
    "freshFirst",
    "freshFirstPerType",
    "isContextConfusable",
    "longMemEvalRetrieval",
    "officialLocomoF1",
    "olderEvidenceMarked",
    "retrievalAtK",
    "scoreReliability",
    "scoredHits",
    "simpleMemF1",
    "summarizeLongMemEval",
    "summarizeQa",
    "summarizeRetrieval",
  ]);
});
