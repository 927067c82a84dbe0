import { parentPort } from "node:worker_threads";

export interface TaskMessage<Task> {
  id: number;
  task: Task;
}

export type ReplyMessage<Result> =
  | { id: number; result: Result }
  | { id: number; error: { message: string; code?: string; where?: string; hint?: string } };

/**
 * The worker side of thread-pool.ts: answers each task the pool posts with
 * `handle`'s result, or with its error's message, code, where and hint (the
 * pool rethrows them as a RamemError). `transfer` names the buffers a result
 * may hand over instead of copying.
 */
export function servePoolTasks<Task, Result>(handle: (task: Task) => Promise<Result>, transfer: (result: Result) => ArrayBuffer[] = () => []): void {
  const port = parentPort;
  if (!port) throw new Error("servePoolTasks runs in a worker thread of a thread pool");
  port.on("message", ({ id, task }: TaskMessage<Task>) => {
    handle(task).then(
      (result) => port.postMessage({ id, result } satisfies ReplyMessage<Result>, transfer(result)),
      (err: unknown) => {
        const e = err as { message?: string; code?: string; where?: string; hint?: string };
        port.postMessage({
          id,
          error: { message: e.message ?? String(err), ...(e.code ? { code: e.code } : {}), ...(e.where ? { where: e.where } : {}), ...(e.hint ? { hint: e.hint } : {}) },
        } satisfies ReplyMessage<Result>);
      },
    );
  });
}
