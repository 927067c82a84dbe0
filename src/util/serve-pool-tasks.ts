import { parentPort } from "node:worker_threads";

export interface TaskMessage<Task> {
  id: number;
  task: Task;
}

/** The pool's last message to a thread: finish what runs, then exit (thread-pool.ts' close). */
export interface CloseMessage {
  close: true;
}

export type ReplyMessage<Result> =
  | { id: number; result: Result }
  | { id: number; error: { message: string; code?: string; where?: string; hint?: string } };

/**
 * The worker side of thread-pool.ts: answers each task the pool posts with
 * `handle`'s result, or with its error's message, code, where and hint (the
 * pool rethrows them as a RamemError). `transfer` names the buffers a result
 * may hand over instead of copying.
 *
 * On the pool's close message the thread answers the tasks it has, then
 * closes its port, so its event loop empties and it exits by itself. It is
 * never stopped from outside in the middle of a task: `worker.terminate()`
 * during a native call (onnxruntime-node's loadModel or run) makes the addon
 * throw a C++ exception it cannot hand to JavaScript any more, and the whole
 * process aborts (seen here: SIGABRT, "terminate called after throwing an
 * instance of 'Napi::Error'", about once in 50 pool closes).
 */
export function servePoolTasks<Task, Result>(handle: (task: Task) => Promise<Result>, transfer: (result: Result) => ArrayBuffer[] = () => []): void {
  const port = parentPort;
  if (!port) throw new Error("servePoolTasks runs in a worker thread of a thread pool");
  const running = new Set<Promise<void>>();
  let closing = false;
  port.on("message", (message: TaskMessage<Task> | CloseMessage) => {
    if ("close" in message) {
      closing = true;
      void Promise.all(running).then(() => port.close());
      return;
    }
    // The pool sends nothing after its close message; this only guards the order.
    if (closing) return;
    const { id, task } = message;
    const done: Promise<void> = handle(task)
      .then(
        (result) => port.postMessage({ id, result } satisfies ReplyMessage<Result>, transfer(result)),
        (err: unknown) => {
          const e = err as { message?: string; code?: string; where?: string; hint?: string };
          port.postMessage({
            id,
            error: { message: e.message ?? String(err), ...(e.code ? { code: e.code } : {}), ...(e.where ? { where: e.where } : {}), ...(e.hint ? { hint: e.hint } : {}) },
          } satisfies ReplyMessage<Result>);
        },
      )
      .finally(() => running.delete(done));
    running.add(done);
  });
}
