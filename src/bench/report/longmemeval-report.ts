import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LongMemEvalBenchResult } from "../longmemeval/run-longmemeval.js";
import type { LongMemEvalSummary } from "../metrics/index.js";
import { abstentionTable } from "./abstention-report.js";
import { scoreReliabilityTable } from "./score-reliability-report.js";

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));

/** Every k, every metric, every type: the full table (report.md). */
function fullTable(level: string, name: string, s: LongMemEvalSummary, ks: readonly number[]): string[] {
  const rows = [["overall", s.overall] as const, ...Object.entries(s.perType)];
  return rows.map(([type, m]) => `| ${name} | ${level} | ${type} (n=${m[ks[0]!]?.n ?? 0}) | ${ks.map((k) => `${f3(m[k]?.recallAny)} / ${f3(m[k]?.recallAll)} / ${f3(m[k]?.ndcgAny)}`).join(" | ")} |`);
}

/** The figures the targets are stated in, one line per variant; then recall_all@10 (turn) and @5 (session) per question type. */
export function longMemEvalSummaryTables(r: LongMemEvalBenchResult): string {
  const at = (s: LongMemEvalSummary, k: number, m: "recallAll" | "recallAny") => (r.ks.includes(k) ? f3(s.overall[k]?.[m]) : "–");
  const lines = [
    `| variant | session all@5 | session all@10 | turn any@1 | turn all@5 | turn all@10 | fresh-first (n=${r.variants[0]?.freshFirst.n ?? 0}) | older marked earlier (hits) |`,
    "|---|---|---|---|---|---|---|---|",
    ...r.variants.map(
      (v) =>
        `| ${v.name} | ${at(v.session, 5, "recallAll")} | ${at(v.session, 10, "recallAll")} | ${at(v.turn, 1, "recallAny")} | ${at(v.turn, 5, "recallAll")} | ${at(v.turn, 10, "recallAll")} | ${f3(v.freshFirst.freshFirst)} | ` +
        `${f3(v.olderEvidenceMarked.markedEarlier)} (n=${v.olderEvidenceMarked.n}) |`,
    ),
  ];
  lines.push(...freshFirstByType(r));
  const types = Object.keys(r.variants[0]?.turn.perType ?? {}).sort();
  const perType = (title: string, level: "session" | "turn", k: number) => {
    if (!r.ks.includes(k)) return [];
    return [
      "",
      `${title} by question type`,
      "",
      `| variant | ${types.map((t) => `${t} (n=${r.variants[0]!.turn.perType[t]![k]?.n ?? 0})`).join(" | ")} |`,
      `|---|${types.map(() => "---").join("|")}|`,
      ...r.variants.map((v) => `| ${v.name} | ${types.map((t) => f3(v[level].perType[t]?.[k]?.recallAll)).join(" | ")} |`),
    ];
  };
  lines.push(...perType("turn recall_all@10", "turn", 10), ...perType("turn recall_all@5", "turn", 5), ...perType("session recall_all@5", "session", 5), ...perType("session recall_all@10", "session", 10));
  lines.push(...scoreReliabilityTable(r.variants, "the top 20 hits of every answerable question; evidence: covers a has_answer turn"));
  lines.push(...abstentionTable(r.variants, r.abstentionData ? `abstention questions (the data file's and ${r.abstentionData}'s)` : "abstention questions of the data file"));
  const skipped = r.variants[0]?.session.skippedAbstention ?? 0;
  lines.push(
    "",
    `${r.questions} questions, ${skipped} abstention questions left out of the recall figures. Gold — session: ${r.gold.session}; turn: ${r.gold.turn}.`,
    "",
    "Older marked earlier: knowledge-update questions; among the top-10 hits that cover an evidence turn of an answer session older than the newest one, " +
      "the share whose validity says it no longer holds (validTo or supersededBy set), counted per hit (n = such hits).",
  );
  return lines.join("\n");
}

/** Fresh-first on every question type that has questions with two or more answer sessions. */
function freshFirstByType(r: LongMemEvalBenchResult): string[] {
  const types = [...new Set(r.variants.flatMap((v) => Object.keys(v.freshFirstPerType)))].sort();
  if (types.length === 0) return [];
  const n = (t: string) => r.variants[0]?.freshFirstPerType[t]?.n ?? 0;
  return [
    "",
    "fresh-first by question type (questions with two or more answer sessions; the newest ranks above every older one)",
    "",
    `| variant | ${types.map((t) => `${t} (n=${n(t)})`).join(" | ")} |`,
    `|---|${types.map(() => "---").join("|")}|`,
    ...r.variants.map((v) => `| ${v.name} | ${types.map((t) => f3(v.freshFirstPerType[t]?.freshFirst)).join(" | ")} |`),
  ];
}

export function longMemEvalTables(r: LongMemEvalBenchResult): string {
  const header = `| variant | level | question type | ${r.ks.map((k) => `@${k} any / all / ndcg`).join(" | ")} |`;
  const lines = [header, `|${["", "", "", ...r.ks].map(() => "---").join("|")}|`];
  for (const v of r.variants) lines.push(...fullTable("session", v.name, v.session, r.ks), ...fullTable("turn", v.name, v.turn, r.ks));
  return lines.join("\n");
}

export function writeLongMemEvalReport(r: LongMemEvalBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "longmemeval-results.json"), join(outDir, "longmemeval-report.md"), join(outDir, "longmemeval-questions.jsonl")];
  const { traces, ...results } = r;
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...results }, null, 2)}\n`);
  writeFileSync(
    files[1]!,
    `# LongMemEval retrieval benchmark\n\nCommand: \`${command}\`\n\n${longMemEvalSummaryTables(r)}\n\n## Every k (recall_any / recall_all / ndcg_any)\n\n${longMemEvalTables(r)}\n\n` +
      `Per question: \`longmemeval-questions.jsonl\` (each variant's top ${traces[0] ? Object.values(traces[0].variants)[0]?.top.length ?? 0 : 0} hits with session, turns, role, reasons; its frame; the rank of every gold session and turn).\n`,
  );
  writeFileSync(files[2]!, traces.map((t) => JSON.stringify(t)).join("\n") + (traces.length ? "\n" : ""));
  return files;
}
