/** Apart from dense-index.ts so the public types name nothing of better-sqlite3 (a consumer need not install its types). */

/** What `ramem reindex` did on SQLite: per namespace at or above the threshold, its vectors and whether its index was built (else it was on disk and caught up). */
export interface SqliteDenseIndexReport {
  /** "built": at least one index was built from the stored vectors; "up to date": all were on disk; "none": no namespace is large enough to have one. */
  action: "built" | "up to date" | "none";
  vectors: number;
  seconds: number;
  namespaces: Array<{ namespace: string; vectors: number; built: boolean }>;
  note?: string;
  /** Temp files that index writes killed half-way left in `<db>.ann/` (their process gone), removed when this handle opened: how many, and the bytes given back. Absent when there were none. */
  staleTemps?: { files: number; bytes: number };
}
