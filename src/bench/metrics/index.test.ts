import { test } from "node:test";
import assert from "node:assert/strict";
import * as metrics from "./index.js";

test("index re-exports every public function", () => {
  const names = Object.keys(metrics).sort();
  assert.deepEqual(names, [
    "LONGMEMEVAL_KS",
    "confusableSubset",
    "countTokens",
    "distractionMetrics",
    "freshFirst",
    "isContextConfusable",
    "longMemEvalRetrieval",
    "officialLocomoF1",
    "retrievalAtK",
    "simpleMemF1",
    "summarizeLongMemEval",
    "summarizeQa",
    "summarizeRetrieval",
  ]);
});
