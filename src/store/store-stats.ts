import type { StoreStats } from "./contract.js";
import type { EmbedderBinding } from "./embedder-binding.js";

/**
 * A dialect's counts as StoreStats. Counts of one namespace give no
 * `namespaces`: it is 1 when that namespace holds anything, else 0.
 */
export function storeStats(counts: { namespaces?: number; sessions: number; units: number }, binding: EmbedderBinding | null): StoreStats {
  const { sessions, units } = counts;
  return {
    namespaces: counts.namespaces ?? (sessions > 0 || units > 0 ? 1 : 0),
    sessions,
    units,
    embedder: binding?.embedder ?? null,
    dimensions: binding?.dimensions ?? null,
  };
}
