import { Command } from "commander";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { cliOut } from "../io.js";

export function statsCommand(): Command {
  return addStoreOptions(
    new Command("stats")
      .description("Show what the store holds: namespaces, sessions, units, the embedder it is bound to.")
      .option("--namespace <ns>", "only this namespace"),
  ).action(async (opts: CommonOptions) =>
    runAction(opts.json, async () => {
      const memory = await openFromOptions({ ...opts, embedder: opts.embedder ?? "hash" }, { mustExist: true });
      try {
        const stats = await memory.stats(opts.namespace);
        const namespaces = opts.namespace ? [opts.namespace] : await memory.store.listNamespaces();
        const perNamespace = [];
        for (const ns of namespaces) perNamespace.push({ namespace: ns, ...(await memory.stats(ns)), range: await memory.store.historyRange(ns) });
        if (opts.json) {
          cliOut(`${JSON.stringify({ store: memory.store.location, ...stats, perNamespace })}\n`);
          return;
        }
        cliOut(
          `store: ${memory.store.location}\nembedder: ${stats.embedder ?? "(none yet)"}${stats.dimensions ? ` (${stats.dimensions}-d)` : ""}\n` +
            `namespaces: ${stats.namespaces} · sessions: ${stats.sessions} · units: ${stats.units}\n`,
        );
        for (const n of perNamespace) {
          const range = n.range ? `${n.range.start.slice(0, 10)} → ${n.range.end.slice(0, 10)}` : "empty";
          cliOut(`  ${n.namespace.padEnd(24)} ${String(n.sessions).padStart(5)} sessions ${String(n.units).padStart(7)} units  ${range}\n`);
        }
      } finally {
        await memory.close();
      }
    }),
  );
}
