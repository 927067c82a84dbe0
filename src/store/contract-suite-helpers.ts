/**
 * What the store contract suite's parts (contract-*-suite.ts) share: the
 * context runStoreContractSuite hands each (`open`, `withStore`) and the
 * small assertions and fixtures helpers they use.
 */
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import type { MemoryStore, UnitRecord } from "./contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";

export interface ContractSuiteContext {
  /** A fresh, empty store of the dialect under test; the caller closes it. */
  open: () => Promise<MemoryStore>;
  /** Runs `fn` on a fresh store (bound to the test embedder unless `bind` is false) and closes it. */
  withStore: (fn: (store: MemoryStore) => Promise<void>, bind?: boolean) => Promise<void>;
}

export const ids = (xs: readonly { id: string }[]) => xs.map((x) => x.id);

/** Units as written: the store adds createdAt and updatedAt. */
export const untimed = (us: readonly MemoryUnit[]) => us.map(({ createdAt: _c, updatedAt: _u, ...u }) => u);

export const unitIds = (recs: readonly UnitRecord[]) => recs.map((r) => r.unit.id);

export const isRamemError = (code: string) => (err: unknown) => {
  assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
  assert.equal(err.code, code);
  return true;
};

export const isAnyRamemError = (err: unknown) => {
  assert.ok(err instanceof RamemError, `expected RamemError, got ${String(err)}`);
  return true;
};

/** `base` nudged towards `noise` by `amount`, renormalised. */
export function mix(base: Float32Array, noise: Float32Array, amount: number): Float32Array {
  const v = base.map((x, i) => x + amount * noise[i]!);
  let n = 0;
  for (const x of v) n += x * x;
  return v.map((x) => x / Math.sqrt(n));
}
