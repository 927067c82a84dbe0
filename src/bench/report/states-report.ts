import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StatesBenchResult, StatesVariantSummary } from "../states/run-states.js";

const f3 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(3));

/**
 * One table: valid@1, stale first and valid@k over all questions, valid@1 per
 * kind, and, when there are dependent questions, the share of outdated ones
 * flagged mayBeOutdated and of the others flagged all the same.
 */
function variantsTable(variants: readonly StatesVariantSummary[], k: number): string {
  const first = variants[0];
  const kinds = Object.keys(first?.perKind ?? {});
  const dep = first?.perKind.dependent?.dependent;
  const head =
    `| variant | valid@1 (n=${first?.overall.n ?? 0}) | stale first | valid@${k} | ${kinds.map((kind) => `${kind} valid@1 (n=${first!.perKind[kind]!.n})`).join(" | ")} |` +
    (dep ? ` dependent valid@${k} | flagged (n=${dep.outdated}) | false flags (n=${dep.notOutdated}) |` : "");
  const cols = 4 + kinds.length + (dep ? 3 : 0);
  return [
    head,
    `|${Array.from({ length: cols }, () => "---").join("|")}|`,
    ...variants.map((v) => {
      const d = v.perKind.dependent;
      const flags = dep ? ` ${f3(d?.validAtK)} | ${f3(d?.dependent?.flagged)} | ${f3(d?.dependent?.falseFlags)} |` : "";
      return `| ${v.name} | ${f3(v.overall.validAt1)} | ${f3(v.overall.staleFirst)} | ${f3(v.overall.validAtK)} | ${kinds.map((kind) => f3(v.perKind[kind]?.validAt1)).join(" | ")} |${flags}`;
    }),
  ].join("\n");
}

/** Every question together first; with more than one part, then each part (its own files, overall and per kind) on its own. */
export function statesTables(r: StatesBenchResult): string {
  const all = variantsTable(r.variants, r.k);
  const parts = r.parts ?? [];
  if (parts.length <= 1) return all;
  const sections = parts.map(
    (p) => `${p.name} (${p.questions} questions; ${p.files.join(", ")})\n\n${p.questions > 0 ? variantsTable(p.variants, r.k) : "no questions"}`,
  );
  return [`all parts (${r.questions} questions)`, "", all, "", sections.join("\n\n")].join("\n");
}

export function writeStatesReport(r: StatesBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "states-results.json"), join(outDir, "states-report.md")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...r }, null, 2)}\n`);
  writeFileSync(
    files[1]!,
    `# States and sequences benchmark\n\nCommand: \`${command}\`\n\n${statesTables(r)}\n\n` +
      "valid@1: the rank-1 memory covers a turn that states the answer valid for the question; stale first: a superseded statement or another occurrence ranks above every valid one. " +
      "Dependent questions (a fact that depends on a state): flagged = share of the outdated ones whose first evidence hit carries mayBeOutdated; " +
      `false flags = share of the not-outdated ones whose evidence hit carries it; evidence outside the top ${r.k} counts as not flagged.\n`,
  );
  return files;
}
