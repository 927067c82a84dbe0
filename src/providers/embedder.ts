/**
 * Embedder contract, version 1. Implementations turn texts into unit-length
 * vectors of a fixed size. `id` names model and version: it is stored with the
 * vectors, so a store never mixes vectors of two models.
 */
export interface Embedder {
  readonly specificationVersion: "v1";
  /** e.g. "use-lite@0.2.0" or "openai:text-embedding-3-small". */
  readonly id: string;
  readonly dimensions: number;
  /** How many texts one call should carry; callers batch by it. */
  readonly maxBatchSize: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Optional: releases what the embedder holds (the USE-lite pool's threads). */
  close?(): void | Promise<void>;
}
