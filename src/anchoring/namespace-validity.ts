import type { MemoryStore, StoredSession } from "../store/contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { deriveValidity, type Validity } from "./derive-validity.js";

export interface NamespaceValidity {
  validity: Map<string, Validity>;
  /** The units that state a state (or carry a user's correction), by id: successors may sit outside a recall's pool. */
  stateUnits: Map<string, MemoryUnit>;
}

// Keyed by store and namespace; valid while the namespace's sessions are unchanged.
const cache = new WeakMap<MemoryStore, Map<string, { fingerprint: string; value: NamespaceValidity }>>();

/**
 * The validity of every state a namespace's units state, derived from all of
 * them (a statement is superseded by a later one anywhere in the history).
 * Reading every unit of a namespace is the cost, so the result is kept per
 * store and namespace and reused while the sessions' content hashes are the
 * same — any write (ingest, append, forget, a correction) changes one of them,
 * from whichever process it comes.
 */
export async function namespaceValidity(store: MemoryStore, namespace: string, sessions: readonly StoredSession[]): Promise<NamespaceValidity> {
  const fingerprint = sessions.map((s) => `${s.id}\u0000${s.contentHash}`).sort().join("\u0001");
  let perStore = cache.get(store);
  if (!perStore) cache.set(store, (perStore = new Map()));
  const hit = perStore.get(namespace);
  if (hit && hit.fingerprint === fingerprint) return hit.value;
  const units = store.listStateUnits ? await store.listStateUnits(namespace) : stateUnitsOf(await store.listUnits(namespace));
  const value = { validity: deriveValidity(units), stateUnits: new Map(units.map((u) => [u.id, u])) };
  perStore.set(namespace, { fingerprint, value });
  return value;
}

/**
 * What listStateUnits gives, filtered out of every unit. A user's correction
 * may name a successor that states no state itself: it must be known, or the
 * correction reads as "not superseded".
 */
export function stateUnitsOf(all: readonly MemoryUnit[]): MemoryUnit[] {
  const successors = new Set(all.flatMap((u) => (u.supersession?.supersededBy ? [u.supersession.supersededBy] : [])));
  return all.filter((u) => (u.context.states?.length ?? 0) > 0 || u.supersession || successors.has(u.id));
}
