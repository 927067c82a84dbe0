/**
 * The store contract suite: the behaviour every MemoryStore dialect must
 * show, run by each dialect's test file. This file opens the stores and runs
 * the parts in order; the cases live in contract-sessions-suite.ts,
 * contract-isolation-suite.ts, contract-search-suite.ts,
 * contract-listing-suite.ts, contract-deletes-suite.ts,
 * contract-optional-suite.ts and writes-contract-suite.ts.
 */
import { describe } from "node:test";
import type { MemoryStore } from "./contract.js";
import { runWritesContractSuite } from "./writes-contract-suite.js";
import { TEST_DIMS, TEST_EMBEDDER } from "./testing/make-unit.js";
import type { ContractSuiteContext } from "./contract-suite-helpers.js";
import { bindEmbedderContract, replaceSessionContract } from "./contract-sessions-suite.js";
import { namespaceIsolationContract } from "./contract-isolation-suite.js";
import { approximateDenseContract, searchDenseContract, searchLexicalContract } from "./contract-search-suite.js";
import { getUnitEmbeddingsContract, getUnitsContract, historyRangeContract, listUnitsFiltersContract } from "./contract-listing-suite.js";
import { deletesContract, restoreNamespaceContract } from "./contract-deletes-suite.js";
import { listStateUnitsContract, namespaceVersionContract, nextUnitsContract } from "./contract-optional-suite.js";

export interface ContractSuiteOptions {
  /**
   * A fresh store of the same dialect whose dense search goes through its
   * approximate index at any namespace size: it must agree with the exact
   * store up to recall, and see every write at once.
   */
  openApproximate?: () => Promise<MemoryStore>;
}

/**
 * The behaviour every MemoryStore dialect must show. `open` must return a
 * fresh, empty store on each call; each test closes the store it opened.
 */
export function runStoreContractSuite(name: string, open: () => Promise<MemoryStore>, suiteOptions: ContractSuiteOptions = {}): void {
  async function withStore(fn: (store: MemoryStore) => Promise<void>, bind = true): Promise<void> {
    const store = await open();
    try {
      if (bind) await store.bindEmbedder(TEST_EMBEDDER, TEST_DIMS);
      await fn(store);
    } finally {
      await store.close();
    }
  }
  const ctx: ContractSuiteContext = { open, withStore };

  describe(`MemoryStore contract: ${name}`, () => {
    bindEmbedderContract(ctx);
    replaceSessionContract(ctx);
    namespaceIsolationContract(ctx);
    searchLexicalContract(ctx);
    searchDenseContract(ctx);
    listUnitsFiltersContract(ctx);
    deletesContract(ctx);
    restoreNamespaceContract(ctx);
    nextUnitsContract(ctx);
    listStateUnitsContract(ctx);
    namespaceVersionContract(ctx);
    getUnitsContract(ctx);
    getUnitEmbeddingsContract(ctx);

    runWritesContractSuite((fn) => withStore(fn));

    const openApproximate = suiteOptions.openApproximate;
    if (openApproximate) approximateDenseContract(ctx, openApproximate);

    historyRangeContract(ctx);
  });
}
