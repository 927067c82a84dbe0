/** What a rebuild of the HNSW index did. Apart from dense-index.ts so the public types name nothing of pg. */
export interface DenseIndexReport {
  /** "rebuilt": the index was there and was built again; "created": it was missing (dropped for a bulk load); "none": no index to build. */
  action: "rebuilt" | "created" | "none";
  /** Vectors in the table (every namespace of the schema). */
  vectors: number;
  seconds: number;
  note?: string;
}
