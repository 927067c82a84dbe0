import { Command } from "commander";
import { readFile } from "node:fs/promises";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { RamemError } from "../../model/errors.js";
import { decodeUtf8 } from "../../util/decode-utf8.js";
import type { EmbedderName } from "../../open-memory.js";
import { cliOut } from "../io.js";

/** The embedder an export's vectors came from, so an empty store opens with it unless --embedder says otherwise. */
function embedderOfExport(text: string): EmbedderName | undefined {
  const first = text.slice(0, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n"));
  try {
    const id = (JSON.parse(first) as { embedder?: unknown }).embedder;
    if (typeof id !== "string") return undefined;
    if (id.startsWith("hash-bow@")) return "hash";
    if (id.startsWith("use-lite@")) return "use-lite";
    if (id.startsWith("openai-compatible:")) return "openai";
  } catch {
    // parseExport reports a bad header with its line; nothing to add here.
  }
  return undefined;
}

export function importCommand(): Command {
  return addStoreOptions(
    new Command("import")
      .description("Import a `ramem export` file into an empty namespace, using its vectors as they are (nothing is re-embedded). The file is checked whole first.")
      .argument("<file>", "JSONL file written by `ramem export`")
      .option("--namespace <ns>", "import under this namespace (default: the exported one)"),
  ).action(async (file: string, opts: CommonOptions & { namespace?: string }) =>
    runAction(opts.json, async () => {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (cause) {
        throw new RamemError("FILE_NOT_READABLE", `cannot read ${file}: ${(cause as Error).message}`, { hint: "check the path" });
      }
      const text = decodeUtf8(bytes, file);
      const embedder = opts.embedder ?? embedderOfExport(text);
      const memory = await openFromOptions({ db: opts.db, store: opts.store, ...(embedder ? { embedder } : {}) });
      try {
        const report = await memory.importNamespace(text, { source: file, ...(opts.namespace ? { namespace: opts.namespace } : {}) });
        cliOut(opts.json ? `${JSON.stringify(report)}\n` : `imported ${report.sessions} sessions, ${report.units} units into ${report.namespace}\n`);
      } finally {
        await memory.close();
      }
    }),
  );
}
