import type { Memory } from "../memory.js";
import { RamemError } from "../model/errors.js";
import { echoValue } from "../model/echo-value.js";

/**
 * A command aimed at a namespace with no session is almost always a typo or a
 * missing ingest: refuse it as a user error (exit 2) naming what the store does
 * hold, instead of answering "nothing matched" with success.
 */
export async function requireNamespace(memory: Memory, namespace: string): Promise<void> {
  const s = await memory.store.stats(namespace);
  if (s.sessions > 0 || s.units > 0) return;
  const namespaces = await memory.store.listNamespaces();
  const shown = namespaces.slice(0, 20).join(", ") + (namespaces.length > 20 ? `, … (${namespaces.length} in all)` : "");
  throw new RamemError("NAMESPACE_NOT_FOUND", `namespace ${echoValue(namespace)} holds no sessions in ${memory.store.location}`, {
    hint: namespaces.length
      ? `pass one of its namespaces with --namespace: ${shown} (see \`ramem stats\`)`
      : "the store is empty: run `ramem ingest FILE` first (or check --db / --store)",
  });
}
