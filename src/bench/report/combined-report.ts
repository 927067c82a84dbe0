import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LocomoBenchResult } from "../locomo/run-locomo.js";
import type { LongMemEvalBenchResult } from "../longmemeval/run-longmemeval.js";
import { BASELINE_VARIANT } from "../variants.js";

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));

export interface CombinedRow {
  variant: string;
  /** abstainAuroc: the abstain judgment's AUROC, answerable against abstention questions (NaN without the latter). */
  locomo: { recallAt10: number | undefined; dAt1: number | undefined; abstainAuroc: number } | null;
  longmemeval: {
    sessionAllAt5: number | undefined;
    turnAllAt10: number | undefined;
    abstainAuroc: number;
    /** Question types where this variant is below content-only (recall_all@5 or @10, session or turn), with the gap. */
    belowContentOnly: string[];
  } | null;
}

/** One line per variant with the figures a change is judged by on both data sets. */
export function combinedRows(locomo: LocomoBenchResult | null, lme: LongMemEvalBenchResult | null): CombinedRow[] {
  const names = [...new Set([...(locomo?.variants ?? []), ...(lme?.variants ?? [])].map((v) => v.name))];
  const base = lme?.variants.find((v) => v.name === BASELINE_VARIANT);
  return names.map((name) => {
    const l = locomo?.variants.find((v) => v.name === name);
    const m = lme?.variants.find((v) => v.name === name);
    const below: string[] = [];
    if (m && base && name !== BASELINE_VARIANT) {
      for (const level of ["session", "turn"] as const)
        for (const k of [5, 10])
          for (const [type, byK] of Object.entries(m[level].perType)) {
            const gap = (byK[k]?.recallAll ?? 0) - (base[level].perType[type]?.[k]?.recallAll ?? 0);
            if (gap < -1e-9) below.push(`${type} ${level}@${k} ${gap.toFixed(3)}`);
          }
    }
    return {
      variant: name,
      locomo: l ? { recallAt10: l.retrieval.overall[10]?.recall, dAt1: l.distraction.dAt1, abstainAuroc: l.abstention.aurocJudgment } : null,
      longmemeval: m
        ? { sessionAllAt5: m.session.overall[5]?.recallAll, turnAllAt10: m.turn.overall[10]?.recallAll, abstainAuroc: m.abstention.aurocJudgment, belowContentOnly: below }
        : null,
    };
  });
}

export function combinedTable(rows: readonly CombinedRow[]): string {
  return [
    "| variant | LoCoMo R@10 | LoCoMo D@1 | LoCoMo abstain AUROC | LME session all@5 | LME turn all@10 | LME abstain AUROC | LME types below content-only |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.variant} | ${f3(r.locomo?.recallAt10)} | ${f3(r.locomo?.dAt1)} | ${f3(r.locomo?.abstainAuroc)} | ${f3(r.longmemeval?.sessionAllAt5)} | ${f3(r.longmemeval?.turnAllAt10)} | ${f3(r.longmemeval?.abstainAuroc)} | ${
          r.longmemeval ? (r.variant === BASELINE_VARIANT ? "(baseline)" : r.longmemeval.belowContentOnly.length ? r.longmemeval.belowContentOnly.join("; ") : "none") : "–"
        } |`,
    ),
  ].join("\n");
}

export function writeCombinedReport(rows: readonly CombinedRow[], outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "results.json"), join(outDir, "report.md")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, variants: rows }, null, 2)}\n`);
  writeFileSync(
    files[1]!,
    `# LoCoMo and LongMemEval side by side\n\nCommand: \`${command}\`\n\n${combinedTable(rows)}\n\nEach data set's own report: \`locomo/report.md\`, \`longmemeval/longmemeval-report.md\`.\n`,
  );
  return files;
}
