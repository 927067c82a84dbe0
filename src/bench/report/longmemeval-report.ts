import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LongMemEvalBenchResult } from "../longmemeval/run-longmemeval.js";
import type { LongMemEvalSummary } from "../metrics/index.js";

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));

function table(level: string, name: string, s: LongMemEvalSummary, ks: readonly number[]): string[] {
  const rows = [["overall", s.overall] as const, ...Object.entries(s.perType)];
  return rows.map(([type, m]) => `| ${name} | ${level} | ${type} (n=${m[ks[0]!]?.n ?? 0}) | ${ks.map((k) => `${f3(m[k]?.recallAny)} / ${f3(m[k]?.recallAll)} / ${f3(m[k]?.ndcgAny)}`).join(" | ")} |`);
}

export function longMemEvalTables(r: LongMemEvalBenchResult): string {
  const header = `| variant | level | question type | ${r.ks.map((k) => `@${k} any / all / ndcg`).join(" | ")} |`;
  const lines = [header, `|${["", "", "", ...r.ks].map(() => "---").join("|")}|`];
  for (const v of r.variants) lines.push(...table("session", v.name, v.session, r.ks), ...table("turn", v.name, v.turn, r.ks));
  const skipped = r.variants[0]?.session.skippedAbstention ?? 0;
  return `${lines.join("\n")}\n\n${r.questions} questions, ${skipped} abstention questions skipped.`;
}

export function writeLongMemEvalReport(r: LongMemEvalBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "longmemeval-results.json"), join(outDir, "longmemeval-report.md")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...r }, null, 2)}\n`);
  writeFileSync(files[1]!, `# LongMemEval retrieval benchmark\n\nCommand: \`${command}\`\n\n${longMemEvalTables(r)}\n`);
  return files;
}
