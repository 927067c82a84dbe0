import type { MemoryUnit, StateStatement } from "../../model/memory-unit.js";

/**
 * A unit said by `speaker` on `day` that states `states` (each defaults to a
 * residence of the speaker's with no value), for tests of validity and of
 * state answers.
 */
export function stateUnit(id: string, day: string, states: Array<Partial<StateStatement>>, extra: Partial<MemoryUnit> = {}, speaker = "Ines", slot = "residence"): MemoryUnit {
  return {
    id,
    namespace: "t",
    content: id,
    cue: "",
    context: {
      eventTime: null,
      mentionedTimes: [],
      session: { sessionId: `s-${day}`, start: `${day}T10:00:00.000Z`, end: `${day}T10:00:00.000Z` },
      participants: [speaker],
      location: null,
      entities: [],
      topic: null,
      states: states.map((s) => ({ subject: speaker, slot, value: "", additive: false, ends: false, evidence: "", ...s })),
    },
    provenance: { sessionId: `s-${day}`, turnIds: [`${id}:1`] },
    anchoredBy: "test",
    ...extra,
  };
}
