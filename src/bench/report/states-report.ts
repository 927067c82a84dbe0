import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StatesBenchResult } from "../states/run-states.js";

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));

export function statesTables(r: StatesBenchResult): string {
  const kinds = Object.keys(r.variants[0]?.perKind ?? {});
  const head = `| variant | valid@1 (n=${r.variants[0]?.overall.n ?? 0}) | stale first | valid@${r.k} | ${kinds.map((k) => `${k} valid@1 (n=${r.variants[0]!.perKind[k]!.n})`).join(" | ")} |`;
  return [
    head,
    `|${["", "", "", "", ...kinds].map(() => "---").join("|")}|`,
    ...r.variants.map((v) => `| ${v.name} | ${f3(v.overall.validAt1)} | ${f3(v.overall.staleFirst)} | ${f3(v.overall.validAtK)} | ${kinds.map((k) => f3(v.perKind[k]?.validAt1)).join(" | ")} |`),
  ].join("\n");
}

export function writeStatesReport(r: StatesBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "states-results.json"), join(outDir, "states-report.md")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...r }, null, 2)}\n`);
  writeFileSync(files[1]!, `# States and sequences benchmark\n\nCommand: \`${command}\`\n\n${statesTables(r)}\n\nvalid@1: the rank-1 memory covers a turn that states the answer valid for the question; stale first: a superseded statement or another occurrence ranks above every valid one.\n`);
  return files;
}
