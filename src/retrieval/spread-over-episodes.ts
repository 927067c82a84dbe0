import type { ContentCandidate } from "./content-recall.js";

/**
 * Greedy: the next unit is the best score minus `spread` for every unit
 * already taken from its episode, so an aggregating query's budget reaches
 * the other episodes that hold a strong hit. Context-valid units are placed
 * before the rest, as without the spread; the count of units taken carries over.
 */
export function spreadOverEpisodes(
  ordered: readonly ContentCandidate[],
  valid: (c: ContentCandidate) => boolean,
  scoreOf: Map<string, number>,
  episodeOf: (c: ContentCandidate) => string | undefined,
  spread: number,
  reasonsOf: Map<string, string[]>,
): ContentCandidate[] {
  const taken = new Map<string, number>();
  const out: ContentCandidate[] = [];
  for (const part of [ordered.filter(valid), ordered.filter((c) => !valid(c))]) {
    const left = [...part];
    while (left.length > 0) {
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (const [i, c] of left.entries()) {
        const score = (scoreOf.get(c.unitId) ?? c.score) - spread * (taken.get(episodeOf(c) ?? "") ?? 0);
        if (score > bestScore) [best, bestScore] = [i, score];
      }
      const [next] = left.splice(best, 1);
      const episode = episodeOf(next!);
      const already = episode === undefined ? 0 : (taken.get(episode) ?? 0);
      if (already > 0) reasonsOf.get(next!.unitId)!.push(`spread: ${already} from its episode already −${(spread * already).toFixed(3)}`);
      if (episode !== undefined) taken.set(episode, already + 1);
      out.push(next!);
    }
  }
  return out;
}
