import { Command } from "commander";
import { writeFile } from "node:fs/promises";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { requireNamespace } from "../require-namespace.js";
import { cliOut, cliErr } from "../io.js";

export function exportCommand(): Command {
  return addStoreOptions(
    new Command("export")
      .description("Export a namespace as JSONL (header, sessions, units with their embeddings) for `ramem import`.")
      .requiredOption("--namespace <ns>", "namespace to export")
      .option("--out <file>", "write to this file (default: stdout)"),
  ).action(async (opts: CommonOptions & { namespace: string; out?: string }) =>
    runAction(opts.json, async () => {
      const memory = await openFromOptions(opts, { mustExist: true });
      try {
        await requireNamespace(memory, opts.namespace);
        const s = await memory.store.stats(opts.namespace);
        const text = `${(await memory.exportNamespace(opts.namespace)).join("\n")}\n`;
        if (opts.out) {
          await writeFile(opts.out, text);
          cliErr(`exported ${s.sessions} sessions, ${s.units} units of ${opts.namespace} to ${opts.out}\n`);
        } else cliOut(text);
      } finally {
        await memory.close();
      }
    }),
  );
}
