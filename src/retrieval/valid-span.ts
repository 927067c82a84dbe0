import type { Validity } from "../anchoring/derive-validity.js";

// Validities live as long as the namespace's snapshot, and a state question reads thousands of them.
// The same objects travel out with the hits (unit.validity), so a caller may change one: its span is then parsed again.
const spans = new WeakMap<Validity, { from: number; to: number; validFrom: string; validTo: string | null }>();

/** When a statement held, in ms: validTo null means it still does. Parsed once per validity (re-parsed if it was edited). */
export function validSpan(v: Validity): { from: number; to: number } {
  const known = spans.get(v);
  if (known && known.validFrom === v.validFrom && known.validTo === v.validTo) return known;
  const span = { from: Date.parse(v.validFrom), to: v.validTo ? Date.parse(v.validTo) : Number.POSITIVE_INFINITY, validFrom: v.validFrom, validTo: v.validTo };
  spans.set(v, span);
  return span;
}
