import type { MemoryUnit } from "../model/memory-unit.js";
import { isCountSlot } from "../language/attribute-key.js";
import { slotAnswers } from "./slot-statements.js";

/** Per state index (namespaceValidity keeps one object while the namespace is unchanged): each slot's units, as positions in its order. */
const slotIndexes = new WeakMap<ReadonlyMap<string, MemoryUnit>, { units: MemoryUnit[]; positionsOf: Map<string, number[]> }>();

/**
 * The units of a namespace's state index that state any of `slots`, in the
 * index's order: all a question about those slots can be answered from
 * (reinstate's stateAnswers reads no other), without walking every state
 * statement of the namespace on each recall — thousands at 100k units. The
 * slots of each unit are read once per index object.
 */
export function unitsStatingSlots(stateUnits: ReadonlyMap<string, MemoryUnit>, slots: readonly string[]): MemoryUnit[] {
  let index = slotIndexes.get(stateUnits);
  if (!index) {
    const units = [...stateUnits.values()];
    const positionsOf = new Map<string, number[]>();
    units.forEach((u, position) => {
      for (const slot of new Set((u.context.states ?? []).map((s) => s.slot))) {
        const positions = positionsOf.get(slot);
        if (positions) positions.push(position);
        else positionsOf.set(slot, [position]);
      }
    });
    slotIndexes.set(stateUnits, (index = { units, positionsOf }));
  }
  // A count asked ("number of beehives") is answered by a count of the same thing in other words ("number of hives").
  const keys = slots.some(isCountSlot) ? [...index.positionsOf.keys()].filter((k) => slots.some((asked) => slotAnswers(asked, k))) : slots;
  const positions = new Set(keys.flatMap((slot) => index.positionsOf.get(slot) ?? []));
  return [...positions].sort((a, b) => a - b).map((p) => index.units[p]!);
}
