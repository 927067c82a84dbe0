/**
 * For thread-pool.test.ts: uses one thread of a two-thread pool and never
 * closes it. The process must still end by itself (idle threads hold nothing).
 */
import { createThreadPool } from "../thread-pool.js";
import type { SleepyTask } from "./sleepy-pool-worker.js";

const pool = createThreadPool<SleepyTask, number>({
  size: 2,
  worker: new URL("./sleepy-pool-worker", import.meta.url),
  name: "the sleepy pool",
  code: "SLEEPY_POOL",
  hint: "try again",
  closedHint: "open a new pool",
});
console.log(`answer ${await pool.run({ value: 42, ms: 1 })}`);
