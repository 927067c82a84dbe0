/**
 * How a call's texts are cut into the chunks the model runs, as lists of
 * input positions. The graph pads every text of a chunk to the chunk's
 * longest, and its cost grows faster than linearly with that padded size, so
 * texts are taken shortest first and a chunk closes when it would hold more
 * than `maxTexts` texts or more than `paddedChars` characters once padded
 * (count × longest). Measured on 256 LoCoMo turns, interleaved, load 6–8:
 * 8 texts in input order 12.1 texts/s, sorted 16.7, sorted 16 per chunk
 * 18.3, 32 per chunk 12.7; on 128 LongMemEval turns (~320 tokens each):
 * in order 8 per chunk 4.6/s, sorted 4 per chunk 7.3/s — those sorted
 * within calls of 64 texts. Ingest embeds a session per call, where there
 * is less to sort: 16.6 → 18.8 texts/s (1.13×) over 12 LoCoMo sessions and
 * 6.8 → 7.1 (1.04×) over 6 LongMemEval sessions with these limits. A vector
 * moves by < 3e-7 with the chunk it is computed in (float summation order),
 * as it does between a chunk of 1 and of 8.
 *
 * Those figures are tfjs'. The ONNX runtime (the default since) runs the same
 * chunks; it cares less: in a scratch loop over 1,000 LoCoMo turns sorted by
 * length, chunks of 8 gave 381 texts/s and of 32 gave 348 (load 0.1–0.3).
 *
 * The in-process embedder and the thread pool both run these chunks, so they
 * compute the same vectors.
 */
export const CHUNK_MAX_TEXTS = 16;
export const CHUNK_PADDED_CHARS = 4096;

export function planChunks(texts: readonly string[], maxTexts = CHUNK_MAX_TEXTS, paddedChars = CHUNK_PADDED_CHARS): number[][] {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const chunks: number[][] = [];
  let current: number[] = [];
  for (const i of order) {
    // Sorted ascending, so the text being added is the chunk's longest.
    const longest = Math.max(1, texts[i]!.length);
    if (current.length > 0 && (current.length >= maxTexts || (current.length + 1) * longest > paddedChars)) {
      chunks.push(current);
      current = [];
    }
    current.push(i);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
