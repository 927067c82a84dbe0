import { Worker } from "node:worker_threads";
import { RamemError } from "../model/errors.js";
import type { TaskMessage, ReplyMessage, CloseMessage } from "./serve-pool-tasks.js";

export interface ThreadPoolOptions {
  /** Threads; at least 1. */
  size: number;
  /** The worker module next to its caller, without extension: `new URL("./x-worker", import.meta.url)`. */
  worker: URL;
  /** Handed to every thread as `workerData`. */
  workerData?: unknown;
  /** What the pool is called in its errors ("the use-lite pool"). */
  name: string;
  /** Error code of the pool's own failures (a dead thread, a closed pool). */
  code: string;
  /** What to do when the pool fails: the hint of its errors. */
  hint: string;
  /** What to do when a task comes after close(). */
  closedHint: string;
  /** How long close() lets a thread finish its task before stopping it from outside; default 60 s. */
  closeTimeoutMs?: number;
}

export interface ThreadPool<Task, Result> {
  readonly size: number;
  /** Queues the task for the next free thread. */
  run(task: Task, transfer?: readonly ArrayBuffer[]): Promise<Result>;
  /**
   * Lets every thread finish the task it runs (its caller gets the result),
   * refuses the queued ones and every later run(), and resolves once the
   * threads have exited.
   */
  close(): Promise<void>;
}

interface Pending<Task, Result> {
  message: TaskMessage<Task>;
  transfer: readonly ArrayBuffer[];
  resolve(result: Result): void;
  reject(error: Error): void;
}

interface Slot<Task, Result> {
  worker: Worker;
  busy: Pending<Task, Result> | null;
  exited: Promise<void>;
  hasExited: boolean;
}

/**
 * A fixed set of worker threads, each running the caller's worker module
 * (which answers through serve-pool-tasks.ts), handed one task at a time.
 * Threads start on the first task (a pool that is never used costs nothing)
 * and do not keep the process alive while idle. A task's error in a thread
 * comes back as a RamemError with the thread's code, where and hint; a thread
 * that dies fails its task and every queued one, and closes the pool — what
 * could not run in one thread would most likely fail the same way in another.
 *
 * close() asks each thread to exit once its task is done (serve-pool-tasks.ts)
 * and stops it from outside only when it has not within closeTimeoutMs: a
 * thread stopped inside a native call can abort the whole process.
 */
export function createThreadPool<Task, Result>(options: ThreadPoolOptions): ThreadPool<Task, Result> {
  const size = Math.max(1, Math.floor(options.size));
  const slots: Array<Slot<Task, Result>> = [];
  const queue: Array<Pending<Task, Result>> = [];
  let nextId = 0;
  let closed = false;
  let closing: Promise<void> | null = null;

  function start(): void {
    for (let i = 0; i < size; i++) {
      const worker = startWorker(options.worker, options.workerData);
      let markExited!: () => void;
      const slot: Slot<Task, Result> = { worker, busy: null, exited: new Promise((resolve) => (markExited = resolve)), hasExited: false };
      worker.on("message", (reply: ReplyMessage<Result>) => finish(slot, reply));
      worker.on("error", (err) => fail(slot, err));
      worker.on("exit", (code) => {
        slot.hasExited = true;
        markExited();
        if (slot.busy) fail(slot, new Error(`a thread exited with code ${code} during its task`));
        else if (!closed) fail(slot, new Error(`a thread exited with code ${code}`));
      });
      // After the listeners: a "message" listener refs the worker's port again.
      worker.unref();
      slots.push(slot);
    }
  }

  function finish(slot: Slot<Task, Result>, reply: ReplyMessage<Result>): void {
    const job = slot.busy;
    slot.busy = null;
    // While closing, the thread keeps the process alive until it has exited.
    if (!closed) slot.worker.unref();
    if (job) {
      if ("result" in reply) job.resolve(reply.result);
      else {
        const { code, message, where, hint } = reply.error;
        job.reject(new RamemError(code ?? options.code, message, { ...(where ? { where } : {}), ...(hint ? { hint } : {}) }));
      }
    }
    dispatch();
  }

  function fail(slot: Slot<Task, Result>, err: Error): void {
    const error = new RamemError(options.code, `${options.name} failed: ${err.message}`, { hint: options.hint, cause: err });
    slot.busy?.reject(error);
    slot.busy = null;
    for (const job of queue.splice(0)) job.reject(error);
    void close();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.busy) continue;
      const job = queue.shift()!;
      slot.busy = job;
      slot.worker.ref();
      slot.worker.postMessage(job.message, [...job.transfer]);
    }
  }

  function close(): Promise<void> {
    closing ??= closeThreads();
    return closing;
  }

  async function closeThreads(): Promise<void> {
    closed = true;
    const refused = new RamemError(options.code, `${options.name} was closed before this task ran`, { hint: options.closedHint });
    for (const job of queue.splice(0)) job.reject(refused);
    const timeoutMs = options.closeTimeoutMs ?? 60_000;
    await Promise.all(
      slots.map(async (slot) => {
        if (slot.hasExited) return;
        slot.worker.ref();
        slot.worker.postMessage({ close: true } satisfies CloseMessage);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
        const outcome = await Promise.race([slot.exited, late]);
        clearTimeout(timer);
        if (outcome === "late") await slot.worker.terminate();
      }),
    );
    slots.length = 0;
  }

  return {
    size,
    run(task, transfer = []) {
      if (closed) return Promise.reject(new RamemError(options.code, `${options.name} is closed`, { hint: options.closedHint }));
      if (slots.length === 0) start();
      return new Promise<Result>((resolve, reject) => {
        queue.push({ message: { id: nextId++, task }, transfer, resolve, reject });
        dispatch();
      });
    },
    close,
  };
}

/**
 * The built package runs the .js worker. Under the sources (tsx), Node 20
 * does not apply the main thread's `--import tsx` hooks inside a worker, so
 * the worker first registers tsx itself, then imports the .ts file.
 */
function startWorker(module: URL, workerData: unknown): Worker {
  const execArgv = loaderArgs(process.execArgv);
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL(`${module.href}.js`), { execArgv, workerData });
  // Resolved from here, not from the process's working directory.
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(`${module.href}.ts`)}); });`;
  return new Worker(boot, { eval: true, execArgv, workerData });
}

/**
 * The flags a thread needs to load the same code: the module loaders
 * (`--import tsx` under the sources). Anything else (`--test`, `--cpu-prof`…)
 * is the main thread's business, and some of it a Worker refuses.
 */
export function loaderArgs(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a === "--import" || a === "--loader" || a === "--experimental-loader" || a === "--require" || a === "-r") {
      if (execArgv[i + 1] !== undefined) out.push(a, execArgv[++i]!);
    } else if (/^--(import|loader|experimental-loader|require)=/.test(a)) out.push(a);
  }
  return out;
}
