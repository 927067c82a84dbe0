/**
 * A thread for thread-pool.test.ts: answers `{ value, ms }` with `value`
 * after `ms` milliseconds, and never answers `{ hang: true }`.
 */
import { servePoolTasks } from "../serve-pool-tasks.js";

export type SleepyTask = { value: number; ms: number } | { hang: true };

servePoolTasks<SleepyTask, number>(async (task) => {
  if ("hang" in task) return new Promise<number>(() => setInterval(() => undefined, 1000));
  await new Promise((resolve) => setTimeout(resolve, task.ms));
  return task.value;
});
