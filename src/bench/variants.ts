import { CONTENT_ONLY, type RecallSwitches } from "../retrieval/recall-pipeline.js";
import { RamemError } from "../model/errors.js";

export interface BenchVariant {
  name: string;
  description: string;
  switches: RecallSwitches;
  /** How the generator sees the units: with coordinates, or flattened (SimpleMem-style). */
  rendering: "context" | "plain";
}

/** Every variant is a switch setting of the one recall pipeline. */
export const VARIANTS: readonly BenchVariant[] = [
  { name: "content-only", description: "SimpleMem-style baseline: same units, same fusion, no frame", switches: CONTENT_ONLY, rendering: "plain" },
];

export const BASELINE_VARIANT = "content-only";

export function resolveVariants(names: readonly string[]): BenchVariant[] {
  return names.map((name) => {
    const v = VARIANTS.find((x) => x.name === name);
    if (!v)
      throw new RamemError("UNKNOWN_VARIANT", `unknown variant "${name}"`, {
        hint: `choose from: ${VARIANTS.map((x) => x.name).join(", ")}`,
      });
    return v;
  });
}
