import type { EpisodicContext, MemoryUnit, StateStatement } from "./memory-unit.js";

/**
 * The fields of a recall hit that every face carries beside its own shape
 * (the CLI and MCP flatten the unit, REST and the library keep it whole):
 * what recall derives on the hit's unit (never stored) and the states and
 * saidAt of its context. One serializer, so no face drops one of them.
 *
 * Each field is present exactly when the library's hit has it. Unit ids and
 * dates are copied as they are (ids a caller passes back); free text — state
 * subjects, slots, values and evidence, `validity.states` and `ended[].state`,
 * the link's and relatedLater's evidence, `mayBeOutdated.because` — goes through `text`:
 * as it is for programs (default), `escapeStoredText` on a face a model reads.
 */
export type TextOut = (text: string) => string;

const asIs: TextOut = (s) => s;

export type DerivedHitFields = Pick<MemoryUnit, "validity" | "planOutcome" | "mayBeOutdated">;
export type StatedHitFields = Pick<EpisodicContext, "states" | "saidAt">;

/** validity (with link, relatedLater, ended), planOutcome, mayBeOutdated: recall's derivations on the unit, each when present. */
export function derivedHitFields(unit: DerivedHitFields, text: TextOut = asIs): DerivedHitFields {
  const { validity: v, planOutcome: p, mayBeOutdated: m } = unit;
  return {
    ...(v
      ? {
          validity: {
            states: v.states.map(text),
            validFrom: v.validFrom,
            validTo: v.validTo,
            supersededBy: v.supersededBy,
            origin: v.origin,
            ...(v.link ? { link: { confidence: v.link.confidence, evidence: text(v.link.evidence) } } : {}),
            ...(v.relatedLater ? { relatedLater: v.relatedLater.map((r) => ({ unitId: r.unitId, on: r.on, evidence: text(r.evidence) })) } : {}),
            ...(v.ended ? { ended: v.ended.map((e) => ({ state: text(e.state), validTo: e.validTo, supersededBy: e.supersededBy })) } : {}),
          },
        }
      : {}),
    ...(p ? { planOutcome: { toldAsDoneBy: p.toldAsDoneBy, on: p.on } } : {}),
    ...(m ? { mayBeOutdated: { because: text(m.because), supersededBy: m.supersededBy, on: m.on } } : {}),
  };
}

/** The context's state statements (key: subject and slot; value) and saidAt, each when present. */
export function statedHitFields(context: StatedHitFields, text: TextOut = asIs): StatedHitFields {
  return {
    ...(context.states ? { states: context.states.map((s) => stateOut(s, text)) } : {}),
    ...(context.saidAt !== undefined ? { saidAt: context.saidAt } : {}),
  };
}

function stateOut(s: StateStatement, text: TextOut): StateStatement {
  return {
    subject: text(s.subject),
    slot: text(s.slot),
    value: text(s.value),
    additive: s.additive,
    ends: s.ends,
    evidence: text(s.evidence),
    ...(s.open !== undefined ? { open: s.open } : {}),
  };
}
