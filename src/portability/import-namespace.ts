import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { NamespaceName } from "../model/conversation.js";
import { parseExport } from "./parse-export.js";

export interface ImportReport {
  namespace: string;
  sessions: number;
  units: number;
}

/**
 * Writes an export into `namespace` (default: the one it was exported from),
 * using the vectors in the file: nothing is embedded. The whole file is
 * checked first; the target must be empty (an import is a restore, not a
 * merge), and the store's embedder must be the one that made the vectors. If
 * a write still fails, the sessions already written are removed again.
 */
export async function importNamespace(memory: { store: MemoryStore; embedder: Embedder }, text: string, options: { namespace?: string; source?: string } = {}): Promise<ImportReport> {
  const parsed = parseExport(text, options.source);
  const { header } = parsed;
  const namespace = options.namespace ?? header.namespace;
  if (!NamespaceName.safeParse(namespace).success) throw new RamemError("BAD_INPUT", `invalid namespace ${JSON.stringify(namespace)}`);
  if (header.embedder !== memory.embedder.id || header.dimensions !== memory.embedder.dimensions) {
    throw new RamemError(
      "EMBEDDER_MISMATCH",
      `the export holds vectors of ${header.embedder} (${header.dimensions} dims); this store uses ${memory.embedder.id} (${memory.embedder.dimensions} dims)`,
      { hint: "import into a store built with the same embedder (e.g. a new --db file opened with that --embedder); nothing was imported" },
    );
  }
  const existing = await memory.store.stats(namespace);
  if (existing.sessions > 0 || existing.units > 0) {
    throw new RamemError("NAMESPACE_NOT_EMPTY", `namespace ${namespace} already holds ${existing.sessions} sessions`, {
      hint: "import into an empty namespace, or delete this one first; nothing was imported",
    });
  }
  await memory.store.bindEmbedder(header.embedder, header.dimensions);
  const rename = <T extends { namespace: string }>(x: T): T => (namespace === header.namespace ? x : { ...x, namespace });
  let units = 0;
  try {
    for (const s of parsed.sessions) {
      await memory.store.replaceSession(
        rename(s.session),
        s.contentHash,
        s.units.map((r) => ({ unit: rename(r.unit), embedding: r.embedding })),
      );
      units += s.units.length;
    }
  } catch (err) {
    await memory.store.deleteNamespace(namespace);
    throw err;
  }
  return { namespace, sessions: parsed.sessions.length, units };
}
