/**
 * Runs async work one at a time per key. The server takes it per namespace
 * around every write: an append reads a session's units and writes them back,
 * so two appends running interleaved would lose one's turns.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and diagnostics). */
  get busyKeys(): number {
    return this.#tails.size;
  }
}
