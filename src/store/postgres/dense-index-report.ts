/** What a rebuild of the HNSW index did. Apart from dense-index.ts so the public types name nothing of pg. */
export interface DenseIndexReport {
  /** "rebuilt": the index was there and was built again; "created": it was missing (dropped for a bulk load); "none": no index to build. */
  action: "rebuilt" | "created" | "none";
  /** Vectors in the table (every namespace of the schema). */
  vectors: number;
  seconds: number;
  /** The maintenance_work_mem the build ran with ("2048MB"); absent when there was nothing to build. */
  maintenanceWorkMem?: string;
  /** The max_parallel_maintenance_workers it ran with (0: serial; the server may start fewer); absent when there was nothing to build. */
  parallelWorkers?: number;
  note?: string;
}

/** How a rebuild of the HNSW index runs. */
export interface DenseIndexBuildOptions {
  /** maintenance_work_mem for the build's session, e.g. "3GB" (default: what the graph needs; dense-index.ts › autoBuildMemory). */
  maintenanceWorkMem?: string;
  /**
   * max_parallel_maintenance_workers for the build's session: processes that
   * build beside the one running the statement (0: a serial build). Default:
   * PARALLEL_WORKERS_DEFAULT.
   */
  parallelWorkers?: number;
  /**
   * Called every `progressEveryMs` while the build runs, with its phase and
   * the heap blocks read of all of them (PostgreSQL's
   * pg_stat_progress_create_index; both 0 in the phases that wait for other
   * transactions): a 1M-vector build runs for minutes.
   */
  onProgress?: (done: number, total: number, phase: string) => void;
  /** Default 2,000 ms. */
  progressEveryMs?: number;
}
