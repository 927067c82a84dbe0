import { Command, Option } from "commander";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { requireNamespace } from "../require-namespace.js";
import { createProgress } from "../progress.js";
import { cliOut } from "../io.js";
import { ANCHORER_NAMES, type AnchorerName } from "../../open-memory.js";

export function reanchorCommand(): Command {
  return addStoreOptions(
    new Command("reanchor")
      .description(
        "Re-derive a namespace's memory units from the turns they keep verbatim: every session anchored and embedded afresh " +
          "(e.g. with --anchorer llm once an LLM is configured). For another embedder, export the namespace and `ramem ingest` the export into a new store.",
      )
      .requiredOption("--namespace <ns>", "namespace to re-anchor")
      .addOption(new Option("--anchorer <name>", "rule (offline) or llm (RAMEM_LLM_*)").choices([...ANCHORER_NAMES]).default("rule"))
      .option("--quiet", "no progress output"),
  ).action(async (opts: CommonOptions & { namespace: string; anchorer: AnchorerName; quiet?: boolean }) =>
    runAction(opts.json, async () => {
      const memory = await openFromOptions(opts, { mustExist: true, anchorer: opts.anchorer });
      const progress = createProgress("turns", { quiet: opts.quiet ?? false });
      try {
        await requireNamespace(memory, opts.namespace);
        const r = await memory.reanchor(opts.namespace, { onProgress: (p) => progress.update(p.turnsDone, p.turnsTotal, `session ${p.sessionsDone}/${p.sessionsTotal}`) });
        progress.stop();
        if (opts.json) cliOut(`${JSON.stringify({ namespace: opts.namespace, anchorer: memory.anchorer.id, ...r })}\n`);
        else cliOut(`re-anchored ${r.sessions} sessions, ${r.turns} turns → ${r.unitsWritten} units with ${memory.anchorer.id} in ${r.seconds.toFixed(1)} s\n`);
      } finally {
        progress.stop();
        await memory.close();
      }
    }),
  );
}
