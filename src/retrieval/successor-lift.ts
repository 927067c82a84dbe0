import type { MemoryUnit } from "../model/memory-unit.js";
import type { Validity } from "../anchoring/derive-validity.js";
import type { SupportedCandidate } from "./episode-support.js";

/**
 * The statement that superseded a candidate answers the same question, newer:
 * it gets at least `lift` times the candidate's final score (episode support
 * included), joining the candidates if it was not among them; along a chain
 * (Lisbon → Porto → Braga) the newest inherits too. `supported` changes in place.
 */
export function inheritFromSuperseded(
  supported: SupportedCandidate[],
  unitOf: (unitId: string) => MemoryUnit | undefined,
  validityOf: (unitId: string) => Validity | undefined,
  lift: number,
  reasonsOf: Map<string, string[]>,
): void {
  const byId = new Map(supported.map((s) => [s.candidate.unitId, s]));
  for (let step = 0; step < 4; step++) {
    for (const s of [...byId.values()]) {
      const next = validityOf(s.candidate.unitId)?.supersededBy;
      if (!next || !unitOf(next)) continue;
      let successor = byId.get(next);
      if (!successor) {
        successor = { candidate: { unitId: next, score: 0 }, score: 0 };
        byId.set(next, successor);
        supported.push(successor);
        reasonsOf.set(next, reasonsOf.get(next) ?? []);
      }
      if (lift * s.score > successor.score) {
        successor.score = lift * s.score;
        const why = `supersedes ${s.candidate.unitId}`;
        if (!reasonsOf.get(next)!.includes(why)) reasonsOf.get(next)!.push(why);
      }
    }
  }
}
