import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LocomoBenchResult } from "../locomo/run-locomo.js";
import { recallPlotSvg } from "./recall-plot.js";
import { abstentionTable } from "./abstention-report.js";
import { scoreReliabilityTable } from "./score-reliability-report.js";

const CATEGORY_NAMES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));
const f1 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(1));

function markdownTable(header: string[], rows: string[][]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/** The compact tables: retrieval per variant, per category, distraction, QA. Markdown reads fine in a terminal too. */
export function locomoTables(r: LocomoBenchResult): string {
  const tokenK = r.ks.includes(10) ? 10 : r.ks[0]!;
  const main = markdownTable(
    ["variant", ...r.ks.map((k) => `R@${k}`), `hit@${tokenK}`, "MRR", `tokens@${tokenK}`, `D@1 (n=${r.confusable.size})`, "rank gap"],
    r.variants.map((v) => [
      v.name,
      ...r.ks.map((k) => f3(v.retrieval.overall[k]?.recall)),
      f3(v.retrieval.overall[tokenK]?.hit),
      f3(v.retrieval.overall[tokenK]?.mrr),
      f1(v.tokensAtK[tokenK]),
      f3(v.distraction.dAt1),
      f3(v.distraction.meanRankGap),
    ]),
  );
  const perCategory = markdownTable(
    ["variant", ...[1, 2, 3, 4].map((c) => `${CATEGORY_NAMES[c]} R@${tokenK}`)],
    r.variants.map((v) => [v.name, ...[1, 2, 3, 4].map((c) => f3(v.retrieval.perCategory[c]?.[tokenK]?.recall))]),
  );
  const parts = [
    main,
    "",
    perCategory,
    ...scoreReliabilityTable(r.variants, "the top 20 hits of every question of categories 1–4; evidence: covers an evidence turn"),
    ...abstentionTable(r.variants, "adversarial questions (category 5: the answer is not in the conversation); answerable: categories 1–4"),
  ];
  const withQa = r.variants.filter((v) => v.qa);
  if (withQa.length) {
    parts.push(
      "",
      markdownTable(
        ["variant", "F1 official avg", ...[1, 2, 3, 4].map((c) => `off. ${CATEGORY_NAMES[c]}`), "F1 SimpleMem avg", ...[1, 2, 3, 4].map((c) => `SM ${CATEGORY_NAMES[c]}`), "cat5 (adv.)", "LLM calls", "tokens in/out"],
        withQa.map((v) => {
          const qa = v.qa!;
          return [
            v.name,
            f3(qa.official.average),
            ...[1, 2, 3, 4].map((c) => f3(qa.perCategory[c]?.official)),
            f3(qa.simplemem.average),
            ...[1, 2, 3, 4].map((c) => f3(qa.perCategory[c]?.simplemem)),
            f3(qa.official.category5),
            String(qa.calls),
            `${qa.promptTokens}/${qa.completionTokens}`,
          ];
        }),
      ),
    );
  } else if (r.qaSkipped) parts.push("", `QA skipped: ${r.qaSkipped}`);
  for (const v of r.variants) {
    if (v.frameLlm)
      parts.push("", `${v.name}: ${v.frameLlm.calls} LLM frame calls, tokens in/out ${v.frameLlm.promptTokens}/${v.frameLlm.completionTokens}, ${v.frameLlm.failed} fell back to the rule frame.`);
  }
  return parts.join("\n");
}

export function writeLocomoReport(r: LocomoBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "results.json"), join(outDir, "report.md"), join(outDir, "recall-at-k.svg")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...r }, null, 2)}\n`);
  const md = [
    "# LoCoMo retrieval benchmark",
    "",
    `Command: \`${command}\``,
    "",
    `Data: ${r.data} — ${r.questions} questions; categories 1–4 with evidence scored. Evidence ids dropped: ${r.evidence.dropped}, repaired: ${r.evidence.repaired}.`,
    `Context-confusable subset (fixed from content-only, top ${r.confusable.k}): ${r.confusable.size} questions. D@1 and rank gap are on that subset; rank gap uses K=${r.confusable.k}.`,
    `Timing: ingest ${r.timing.ingestSeconds.toFixed(1)} s (cached: ${r.cachePath}), retrieval ${r.timing.retrievalSeconds.toFixed(1)} s, QA ${r.timing.qaSeconds.toFixed(1)} s.`,
    "",
    locomoTables(r),
    "",
    "![Recall@K](recall-at-k.svg)",
    "",
    ...(r.evidence.droppedIds.length ? ["Dropped evidence ids:", "", ...r.evidence.droppedIds.map((d) => `- ${d.questionId}: "${d.raw}" — ${d.reason}`)] : []),
  ].join("\n");
  writeFileSync(files[1]!, `${md}\n`);
  writeFileSync(files[2]!, recallPlotSvg(r.ks, r.variants.map((v) => ({ name: v.name, values: r.ks.map((k) => v.retrieval.overall[k]?.recall ?? Number.NaN) }))));
  return files;
}
