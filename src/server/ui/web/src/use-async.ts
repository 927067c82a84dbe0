import { useEffect, useState } from "preact/hooks";

export type Async<T> = { state: "loading" } | { state: "ok"; value: T } | { state: "error"; error: unknown };

/** Runs `load` whenever a dependency changes; a stale answer never overwrites a newer one. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): [Async<T>, () => void] {
  const [result, setResult] = useState<Async<T>>({ state: "loading" });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setResult({ state: "loading" });
    load().then(
      (value) => live && setResult({ state: "ok", value }),
      (error: unknown) => live && setResult({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [result, () => setTick((t) => t + 1)];
}
