import { RamemError } from "../model/errors.js";

/** The embedder a store is bound to (MemoryStore.bindEmbedder): its vectors are all of this model. */
export interface EmbedderBinding {
  embedder: string;
  dimensions: number;
}

/** A binding from the store's meta key/value rows; null when none is recorded yet. */
export function bindingFromMeta(rows: readonly { key: string; value: string }[]): EmbedderBinding | null {
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const embedder = m.get("embedder");
  const dims = m.get("dimensions");
  if (embedder === undefined || dims === undefined) return null;
  return { embedder, dimensions: Number(dims) };
}

/**
 * What every dialect's bindEmbedder decides before writing anything: the
 * arguments are sane, and a store already bound to another model refuses
 * (vectors of two models never mix). Returns true when the store is already
 * bound to exactly this embedder, false when it is not bound yet.
 */
export function checkEmbedderBinding(
  bound: EmbedderBinding | null,
  embedderId: string,
  dimensions: number,
  where: { location: string; hint: string },
): boolean {
  if (!embedderId) throw new RamemError("INVALID_EMBEDDER", "embedder id is empty");
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) {
    throw new RamemError("INVALID_EMBEDDER", `embedder dimensions must be an integer in 1..8192, got ${dimensions}`);
  }
  if (!bound) return false;
  if (bound.embedder !== embedderId || bound.dimensions !== dimensions) {
    throw new RamemError(
      "EMBEDDER_MISMATCH",
      `store holds vectors of embedder ${bound.embedder} (${bound.dimensions} dims); asked to use ${embedderId} (${dimensions} dims)`,
      { where: where.location, hint: where.hint },
    );
  }
  return true;
}
