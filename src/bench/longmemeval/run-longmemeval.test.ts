/**
 * Fresh-first per question type and the older-evidence measure, end to end on
 * a tiny LongMemEval file with one knowledge-update question (a move) and one
 * multi-session question.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runLongMemEvalBench } from "./run-longmemeval.js";
import { writeLongMemEvalReport } from "../report/longmemeval-report.js";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { createRuleAnchorer } from "../../anchoring/rule-anchorer.js";

const DATA = fileURLToPath(new URL("../testing/longmemeval-ku-tiny.json", import.meta.url));

test("bench longmemeval: fresh-first per type, and the older knowledge-update evidence the pack marks as earlier", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-lme-ku-"));
  try {
    const r = await runLongMemEvalBench({ dataPath: DATA, ks: [1, 5, 10], variants: ["content-only", "ramem"], cacheDir: join(dir, "cache"), embedder: createHashEmbedder(), anchorer: createRuleAnchorer() });
    for (const v of r.variants) {
      assert.deepEqual(Object.keys(v.freshFirstPerType), ["knowledge-update", "multi-session"], v.name);
      assert.deepEqual(v.freshFirstPerType["knowledge-update"], v.freshFirst, "the per-type knowledge-update entry is the headline figure");
      assert.equal(v.freshFirstPerType["multi-session"]!.n, 1);
      // Every unit of the old Lisbon session is in the top 10 of a three-session haystack.
      assert.ok(v.olderEvidenceMarked.n >= 1, `${v.name}: ${JSON.stringify(v.olderEvidenceMarked)}`);
      assert.ok(v.olderEvidenceMarked.markedEarlier >= 0 && v.olderEvidenceMarked.markedEarlier <= 1);
    }
    // ramem's pack says the Lisbon statement was superseded by the move to Porto.
    assert.equal(r.variants.find((v) => v.name === "ramem")!.olderEvidenceMarked.markedEarlier, 1, JSON.stringify(r.variants.map((v) => v.olderEvidenceMarked)));
    // The count agrees with the trace: hits of the older answer session that cover its evidence turn.
    for (const v of r.variants) {
      const trace = r.traces.find((t) => t.questionId === "ku-home")!.variants[v.name]!;
      const olderEvidenceHits = trace.top.filter((h) => h.sessionId === "home-1" && h.turnIds.includes("home-1:1")).length;
      assert.equal(v.olderEvidenceMarked.n, olderEvidenceHits, v.name);
    }

    const files = writeLongMemEvalReport(r, join(dir, "out"), "ramem bench longmemeval --data ku-tiny");
    const md = readFileSync(files.find((f) => f.endsWith(".md"))!, "utf8");
    assert.match(md, /fresh-first \(n=1\) \| older marked earlier \(hits\) \|/);
    assert.match(md, /fresh-first by question type/);
    assert.match(md, /\| variant \| knowledge-update \(n=1\) \| multi-session \(n=1\) \|/);
    assert.match(md, /\| ramem \| [\d.]+ \| [\d.]+ \|\n/);
    const json = JSON.parse(readFileSync(files.find((f) => f.endsWith("results.json"))!, "utf8")) as { variants: Array<{ freshFirstPerType: unknown; olderEvidenceMarked: { n: number } }> };
    assert.deepEqual(json.variants[1]!.freshFirstPerType, r.variants[1]!.freshFirstPerType);
    assert.equal(json.variants[1]!.olderEvidenceMarked.n, r.variants[1]!.olderEvidenceMarked.n);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
