import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createThreadPool, type ThreadPoolOptions } from "./thread-pool.js";
import type { SleepyTask } from "./testing/sleepy-pool-worker.js";

function sleepyPool(size: number, extra: Partial<ThreadPoolOptions> = {}) {
  return createThreadPool<SleepyTask, number>({
    size,
    worker: new URL("./testing/sleepy-pool-worker", import.meta.url),
    name: "the sleepy pool",
    code: "SLEEPY_POOL",
    hint: "try again",
    closedHint: "open a new pool",
    ...extra,
  });
}

/** Fails instead of hanging when a promise never settles (what close() did to running tasks before). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([promise, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle in ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

test("thread pool: close() lets running tasks finish, refuses queued and later ones, and resolves once the threads have exited", async () => {
  const pool = sleepyPool(2);
  const warm = await Promise.all([pool.run({ value: 1, ms: 1 }), pool.run({ value: 2, ms: 1 })]);
  assert.deepEqual(warm, [1, 2]);
  const running = [pool.run({ value: 10, ms: 300 }), pool.run({ value: 20, ms: 300 })];
  const queued = assert.rejects(pool.run({ value: 30, ms: 1 }), (err: Error & { code?: string; hint?: string }) => {
    assert.equal(err.code, "SLEEPY_POOL");
    assert.match(err.message, /the sleepy pool was closed before this task ran/);
    assert.equal(err.hint, "open a new pool");
    return true;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await within(10_000, "close()", pool.close());
  // It waited for the running tasks instead of stopping their threads under them.
  assert.ok(Date.now() - started >= 150, `close() took ${Date.now() - started} ms`);
  assert.deepEqual(await within(1_000, "the running tasks", Promise.all(running)), [10, 20]);
  await queued;
  await assert.rejects(pool.run({ value: 40, ms: 1 }), { code: "SLEEPY_POOL", message: "the sleepy pool is closed" });
  // close() again is the same close.
  await within(1_000, "a second close()", pool.close());
});

test("thread pool: a thread that does not finish by closeTimeoutMs is stopped and its task fails with the pool's error", async () => {
  const pool = sleepyPool(1, { closeTimeoutMs: 200 });
  const stuck = assert.rejects(within(5_000, "the stuck task", pool.run({ hang: true })), (err: Error & { code?: string; hint?: string }) => {
    assert.equal(err.code, "SLEEPY_POOL");
    assert.match(err.message, /the sleepy pool failed: a thread exited with code \d+ during its task/);
    assert.equal(err.hint, "try again");
    return true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await within(5_000, "close()", pool.close());
  await stuck;
});

test("thread pool: a pool never used closes at once; one used closes its idle threads", async () => {
  await within(1_000, "close() of an unused pool", sleepyPool(2).close());
  const pool = sleepyPool(2);
  assert.equal(await pool.run({ value: 7, ms: 1 }), 7);
  await within(5_000, "close() of an idle pool", pool.close());
});

test("thread pool: a process that leaves its pool open ends by itself once the work is done", async () => {
  // One task in a two-thread pool: one thread worked, the other only started.
  const script = fileURLToPath(new URL("./testing/leave-pool-open.ts", import.meta.url));
  const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = execFile(process.execPath, ["--import", "tsx", script], { timeout: 20_000 }, (err, out) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout: out }),
    );
    child.stdin?.end();
  });
  assert.equal(stdout.trim(), "answer 42");
  assert.equal(code, 0, "the process was still running after 20 s (a thread held it open)");
});
