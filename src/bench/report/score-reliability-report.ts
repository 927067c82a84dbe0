import type { ScoreReliability } from "../metrics/index.js";

const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : "–");

/** Per variant: does a score of s mean evidence s of the time? The ECE, then each band's mean score against its evidence share. */
export function scoreReliabilityTable(variants: ReadonlyArray<{ name: string; scoreReliability: ScoreReliability }>, hitsOf: string): string[] {
  if (!variants.some((v) => v.scoreReliability.hits > 0)) return [];
  const edges = [...new Set(variants.flatMap((v) => v.scoreReliability.bands.map((b) => b.from)))].sort((a, b) => a - b);
  const band = (r: ScoreReliability, from: number) => {
    const b = r.bands.find((x) => x.from === from);
    return b ? `${f3(b.meanScore)} / ${f3(b.evidenceShare)} (${b.hits})` : "–";
  };
  return [
    "",
    `score calibration (${hitsOf}): per band, mean score / share that is evidence (hits); ECE = hit-weighted mean gap`,
    "",
    `| variant | ECE | base rate | ${edges.map((e) => `[${e.toFixed(1)}, ${(e + 0.1).toFixed(1)})`).join(" | ")} |`,
    `|---|---|---|${edges.map(() => "---").join("|")}|`,
    ...variants.map((v) => `| ${v.name} | ${f3(v.scoreReliability.ece)} | ${f3(v.scoreReliability.baseRate)} | ${edges.map((e) => band(v.scoreReliability, e)).join(" | ")} |`),
  ];
}
