/** How a dense search was answered; reported to `onDenseSearch` (tests, benches). Apart from dense-search.ts so the public types name nothing of pg. */
export type DensePath = "exact" | "hnsw" | "hnsw-then-exact";

export interface DenseSearchInfo {
  path: DensePath;
  /**
   * The namespace's units with a vector, counted only as far as the choice of
   * path needs: exact up to the exact-search threshold; above it, one past
   * the larger of the threshold and k (a lower bound, as counting all of them
   * would cost a scan of the namespace per search).
   */
  namespaceUnits: number;
  rows: number;
}
