/**
 * What a USE-lite runtime does: embed one chunk of texts (plan-chunks.ts) into
 * unit vectors, in order. Both runtimes run the same graph over the same
 * weights; the embedder, the thread pool and the tests sit on this.
 */
export type UseLiteRuntime = "onnx" | "tfjs";

export interface UseLiteChunkRunner {
  readonly runtime: UseLiteRuntime;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export const USE_LITE_RUNTIMES: readonly UseLiteRuntime[] = ["onnx", "tfjs"];

/**
 * Empty input is embedded as a single space. The tokenizer yields no tokens for
 * "", and tfjs' graph then silently drops trailing empty rows (so results
 * would no longer line up with inputs) or throws when every row is empty. " "
 * gives one separator token and a stable, unit-length "nothing" vector.
 */
export const prepareUseLiteText = (text: string): string => (text.length === 0 ? " " : text);
