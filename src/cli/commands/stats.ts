import { Command } from "commander";
import { addStoreOptions, runAction, type CommonOptions } from "../shared.js";
import { cliOut } from "../io.js";
import { openStore } from "../../store/open-store.js";
import { resolveStoreLocation } from "../store-location.js";
import { checkNamespace } from "../../model/check-namespace.js";

export function statsCommand(): Command {
  return addStoreOptions(
    new Command("stats")
      .description("Show what the store holds: namespaces, sessions, units, the embedder it is bound to.")
      .option("--namespace <ns>", "only this namespace"),
  ).action(async (opts: CommonOptions) =>
    runAction(opts.json, async () => {
      // Only the store: counting needs no embedder, anchorer or language model, and loading them was most of the command's time.
      const namespace = opts.namespace === undefined ? undefined : checkNamespace(opts.namespace);
      const store = await openStore(resolveStoreLocation(opts), { mustExist: true });
      try {
        const stats = await store.stats(namespace);
        const namespaces = namespace ? [namespace] : await store.listNamespaces();
        const perNamespace = [];
        for (const ns of namespaces) perNamespace.push({ namespace: ns, ...(await store.stats(ns)), range: await store.historyRange(ns) });
        if (opts.json) {
          cliOut(`${JSON.stringify({ store: store.location, ...stats, perNamespace })}\n`);
          return;
        }
        cliOut(
          `store: ${store.location}\nembedder: ${stats.embedder ?? "(none yet)"}${stats.dimensions ? ` (${stats.dimensions}-d)` : ""}\n` +
            `namespaces: ${stats.namespaces} · sessions: ${stats.sessions} · units: ${stats.units}\n`,
        );
        for (const n of perNamespace) {
          const range = n.range ? `${n.range.start.slice(0, 10)} → ${n.range.end.slice(0, 10)}` : "empty";
          cliOut(`  ${n.namespace.padEnd(24)} ${String(n.sessions).padStart(5)} sessions ${String(n.units).padStart(7)} units  ${range}\n`);
        }
      } finally {
        await store.close();
      }
    }),
  );
}
