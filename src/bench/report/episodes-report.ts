import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EpisodesBenchResult } from "../episodes/run-episodes.js";

const f3 = (v: number) => v.toFixed(3);

export function episodesTable(r: EpisodesBenchResult): string {
  return [
    `| setting | window | min turns | depth | cue bonus | lexical share | Pk ↓ (n=${r.joined}) | boundary P | boundary R | single kept whole (n=${r.single}) | episodes / session |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...r.variants.map(
      (v) =>
        `| ${v.name} | ${v.settings.window} | ${v.settings.minTurns} | ${v.settings.depth} | ${v.settings.cueBonus} | ${v.settings.lexicalShare} | ${f3(v.pk)} | ${f3(v.boundaryPrecision)} | ${f3(v.boundaryRecall)} | ${f3(v.singleKeptWhole)} | ${f3(v.episodesPerSession)} |`,
    ),
    "",
    `Cost (${r.cost.units} units, interleaved per session, load ${r.cost.loadAverage.toFixed(1)}): segmentation ${r.cost.segmentUnitsPerSecond} units/s, ` +
      `the rule anchorer ${r.cost.anchorUnitsPerSecond} units/s on the same sessions: segmentation adds ${(100 * r.cost.shareOfAnchoring).toFixed(1)} % to anchoring.`,
  ].join("\n");
}

export function writeEpisodesReport(r: EpisodesBenchResult, outDir: string, command: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files = [join(outDir, "episodes-results.json"), join(outDir, "episodes-report.md")];
  writeFileSync(files[0]!, `${JSON.stringify({ command, ...r }, null, 2)}\n`);
  writeFileSync(
    files[1]!,
    `# Episode segmentation benchmark\n\nCommand: \`${command}\`\n\n${episodesTable(r)}\n\n` +
      "Joined documents: 2–3 pieces of 6–12 consecutive turns from sessions of one conversation at least 3 sessions apart; Pk (Beeferman et al.) with k half the mean piece length; a boundary counts when within one turn. Single pieces: one stretch of one session, which should stay one episode.\n",
  );
  return files;
}
