import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore } from "../store/contract.js";
import { RamemError } from "../model/errors.js";
import { checkArgs, checkFields } from "../model/check-args.js";
import { NamespaceName } from "../model/conversation.js";
import { parseExport } from "./parse-export.js";
import { checkNamespaceEmpty } from "../store/check-session-records.js";
import { echoValue } from "../model/echo-value.js";

export interface ImportReport {
  namespace: string;
  sessions: number;
  units: number;
}

/**
 * Writes an export into `namespace` (default: the one it was exported from),
 * using the vectors in the file: nothing is embedded. The whole file is
 * checked first; the target must be empty (an import is a restore, not a
 * merge), and the store's embedder must be the one that made the vectors.
 * The namespace is written in one store transaction (restoreNamespace): a
 * failure, or the process killed mid-way, leaves nothing of it.
 */
export async function importNamespace(memory: { store: MemoryStore; embedder: Embedder }, text: string, options: { namespace?: string; source?: string } = {}): Promise<ImportReport> {
  checkArgs("importNamespace", { memory: [memory, "object"], text: [text, "string"] });
  checkFields("importNamespace", "options", options, "object?", { namespace: "string?", source: "string?" });
  const parsed = parseExport(text, options.source);
  const { header } = parsed;
  const namespace = options.namespace ?? header.namespace;
  if (!NamespaceName.safeParse(namespace).success) throw new RamemError("BAD_INPUT", `invalid namespace ${echoValue(namespace)}`);
  if (header.embedder !== memory.embedder.id || header.dimensions !== memory.embedder.dimensions) {
    throw new RamemError(
      "EMBEDDER_MISMATCH",
      `the export holds vectors of ${header.embedder} (${header.dimensions} dims); this store uses ${memory.embedder.id} (${memory.embedder.dimensions} dims)`,
      { hint: "import into a store built with the same embedder (e.g. a new --db file opened with that --embedder); nothing was imported" },
    );
  }
  // Also checked inside restoreNamespace's transaction; here it comes before the embedder is bound.
  checkNamespaceEmpty(namespace, await memory.store.stats(namespace));
  await memory.store.bindEmbedder(header.embedder, header.dimensions);
  const rename = <T extends { namespace: string }>(x: T): T => (namespace === header.namespace ? x : { ...x, namespace });
  // One transaction for the whole namespace: killed at any moment, the namespace is absent or complete, and a re-run works.
  await memory.store.restoreNamespace(
    namespace,
    parsed.sessions.map((s) => ({ session: rename(s.session), contentHash: s.contentHash, units: s.units.map((r) => ({ unit: rename(r.unit), embedding: r.embedding })) })),
    { change: { actor: "import", at: new Date().toISOString() } },
  );
  return { namespace, sessions: parsed.sessions.length, units: parsed.sessions.reduce((n, s) => n + s.units.length, 0) };
}
