import type { Embedder } from "../embedder.js";
import { createHashEmbedder } from "../hash-embedder.js";

/** The hash embedder, counting every text it embeds (same id, so caches keyed by embedder id still hit). */
export function countingEmbedder(): Embedder & { texts: number } {
  const inner = createHashEmbedder();
  const e = {
    ...inner,
    texts: 0,
    embed(texts: readonly string[]) {
      e.texts += texts.length;
      return inner.embed(texts);
    },
  };
  return e;
}
