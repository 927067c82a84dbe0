/** How a dense search was answered; reported to `onDenseSearch` (tests, benches). Apart from dense-search.ts so the public types name nothing of pg. */
export type DensePath = "exact" | "hnsw" | "hnsw-then-exact";

export interface DenseSearchInfo {
  path: DensePath;
  namespaceUnits: number;
  rows: number;
}
