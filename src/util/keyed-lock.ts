import { checkArgs } from "../model/check-args.js";

/**
 * Runs async work one at a time per key. The Memory facade takes it per
 * namespace around every write: an append reads a session's units and writes
 * them back, so two appends running interleaved would lose one's turns.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    // Without work, previous.then(undefined) would resolve as if work had run.
    checkArgs("KeyedLock.run", { key: [key, "string"], work: [work, "function"] });
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /**
   * Holds every key at once. Keys are taken in sorted order, the same order
   * for every caller, so two multi-key holders can never wait on each other.
   */
  async runAll<T>(keys: Iterable<string>, work: () => Promise<T>): Promise<T> {
    checkArgs("KeyedLock.runAll", { work: [work, "function"] });
    const sorted = [...new Set(keys)].sort();
    const hold = (i: number): Promise<T> => (i === sorted.length ? work() : this.run(sorted[i]!, () => hold(i + 1)));
    return hold(0);
  }

  /** Keys with work queued or running (for tests and diagnostics). */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
