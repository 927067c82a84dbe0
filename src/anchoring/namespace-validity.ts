import type { MemoryStore, StoredSession } from "../store/contract.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import { deriveValidity, subjectAliases, type Validity } from "./derive-validity.js";

export interface NamespaceValidity {
  validity: Map<string, Validity>;
  /** The units that state a state (or carry a user's correction), by id: successors may sit outside a recall's pool. */
  stateUnits: Map<string, MemoryUnit>;
  /** Who a relation names in this namespace ("ines's sister" → "ana"), from its relation statements. */
  aliases: Map<string, string>;
}

interface Derived {
  /** Each session's content hash when its units below were read. */
  hashes: Map<string, string>;
  /** Each session's own state units (stating a state or carrying a correction), in its order. */
  own: Map<string, MemoryUnit[]>;
  value: NamespaceValidity;
}

// Keyed by store and namespace; a session's part is valid while its content hash is unchanged.
const cache = new WeakMap<MemoryStore, Map<string, Derived>>();

/**
 * Past this many changed sessions the namespace's state units are read in
 * one statement (listStateUnits) instead of session by session.
 */
const REREAD_ALL_ABOVE = 32;

/**
 * The validity of every state a namespace's units state, derived from all of
 * them (a statement is superseded by a later one anywhere in the history).
 * Reading them is the cost (at 100k units ~0.2–0.3 s on PostgreSQL, for ~4k
 * state units), so each session's state units are kept per store and
 * namespace and read again only for the sessions whose content hash changed
 * — any write (ingest, append, forget, a correction) changes one, from
 * whichever process it comes: an append re-reads one session's units, not
 * the namespace's. The derivation itself runs over all of them every time,
 * as do the lookups of the successors corrections name (they may sit in any
 * session, and change with it).
 */
export async function namespaceValidity(store: MemoryStore, namespace: string, sessions: readonly StoredSession[]): Promise<NamespaceValidity> {
  let perStore = cache.get(store);
  if (!perStore) cache.set(store, (perStore = new Map()));
  const hit = perStore.get(namespace);
  const changed = sessions.filter((s) => hit?.hashes.get(s.id) !== s.contentHash);
  if (hit && changed.length === 0 && hit.hashes.size === sessions.length) return hit.value;

  const own = new Map<string, MemoryUnit[]>();
  if (!hit || changed.length > REREAD_ALL_ABOVE) {
    const all = store.listStateUnits ? await store.listStateUnits(namespace) : stateUnitsOf(await store.listUnits(namespace));
    for (const u of all.filter(statesOrCorrects)) {
      const list = own.get(u.provenance.sessionId);
      if (list) list.push(u);
      else own.set(u.provenance.sessionId, [u]);
    }
  } else {
    for (const s of sessions) {
      const kept = hit.hashes.get(s.id) === s.contentHash ? hit.own.get(s.id) : undefined;
      own.set(s.id, kept ?? (await store.listUnits(namespace, { sessionId: s.id })).filter(statesOrCorrects));
    }
  }

  // listStateUnits' order (session start, session id, position): the derivation breaks ties by it.
  const ordered = [...sessions].sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const units = ordered.flatMap((s) => own.get(s.id) ?? []);
  const ids = new Set(units.map((u) => u.id));
  const named = [...new Set(units.flatMap((u) => (u.supersession?.supersededBy && !ids.has(u.supersession.supersededBy) ? [u.supersession.supersededBy] : [])))];
  // A successor that states nothing itself adds no statement: only its time and existence count, read fresh.
  if (named.length > 0) units.push(...(await store.getUnits(namespace, named)));

  const value = { validity: deriveValidity(units), stateUnits: new Map(units.map((u) => [u.id, u])), aliases: subjectAliases(units) };
  perStore.set(namespace, { hashes: new Map(sessions.map((s) => [s.id, s.contentHash])), own, value });
  return value;
}

/** A unit whose own content the derivation reads: one that states a state or carries a user's correction. */
function statesOrCorrects(u: MemoryUnit): boolean {
  return (u.context.states?.length ?? 0) > 0 || Boolean(u.supersession);
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
