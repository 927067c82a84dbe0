import { Argument, Command, Option } from "commander";
import { addStoreOptions, openFromOptions, runAction, type CommonOptions } from "../shared.js";
import { confirmOnTerminal } from "../confirm.js";
import { RamemError } from "../../model/errors.js";
import { echoValue } from "../../model/echo-value.js";
import { checkNamespace } from "../../formats/shared.js";
import type { Memory } from "../../memory.js";
import type { ScrubReport } from "../../store/contract.js";
import { cliOut, cliErr, setExitCode } from "../io.js";

type What = "unit" | "session" | "namespace";

interface ForgetCliOptions extends CommonOptions {
  yes?: boolean;
  purge?: boolean;
}

/**
 * `ramem forget unit|session|namespace`: the library's forget calls, which
 * also scrub the deleted bytes from the store's files; --purge rebuilds the
 * file (VACUUM) too. Asks first on a terminal; anywhere else it needs --yes.
 */
export function forgetCommand(): Command {
  return addStoreOptions(
    new Command("forget")
      .description(
        "Delete a memory unit, a session or a whole namespace, and scrub the deleted text from the store's files (SQLite: zeroed, FTS index rebuilt, WAL checkpointed). " +
          "Asks for confirmation on a terminal; elsewhere pass --yes.",
      )
      .addArgument(new Argument("<what>", "unit, session or namespace").choices(["unit", "session", "namespace"]))
      .argument("[id]", "the unit id (from recall), the session id, or the namespace")
      .option("--namespace <ns>", "namespace of the unit or session (required for them)")
      .option("--yes", "do not ask for confirmation")
      .addOption(new Option("--purge", "also rebuild the store (SQLite VACUUM; PostgreSQL VACUUM FULL of its tables, which locks them while it runs)")),
  )
    .addHelpText(
      "after",
      `
Examples:
  ramem forget unit u_3f9a1c2b4d5e6f708192 --namespace my-agent
  ramem forget session s1 --namespace my-agent --yes --json
  ramem forget namespace my-agent --purge`,
    )
    .action(async (what: What, id: string | undefined, opts: ForgetCliOptions) =>
      runAction(opts.json, async () => {
        const target = forgetTarget(what, id, opts.namespace);
        const memory = await openFromOptions({ db: opts.db, store: opts.store, ...(opts.embedder ? { embedder: opts.embedder } : {}) }, { mustExist: true });
        try {
          const description = await describeTarget(memory, target);
          if (!opts.yes && !(await confirmOnTerminal(`Forget ${description}? This cannot be undone. [y/N] `))) {
            cliErr("cancelled: nothing was deleted\n");
            setExitCode(1);
            return;
          }
          let scrub: ScrubReport | undefined;
          const forget = { purge: opts.purge === true, onScrubbed: (r: ScrubReport) => (scrub = r) };
          const unitsDeleted =
            target.what === "unit"
              ? Number(await memory.forgetUnit(target.id, { ...forget, namespace: target.namespace }))
              : target.what === "session"
                ? await memory.forgetSession(target.id, { ...forget, namespace: target.namespace })
                : await memory.forgetNamespace(target.namespace, forget);
          const report = scrub as ScrubReport | undefined;
          if (opts.json) {
            const id = target.what === "namespace" ? null : target.id;
            cliOut(`${JSON.stringify({ namespace: target.namespace, what: target.what, id, unitsDeleted, purged: forget.purge, scrub: report ?? null })}\n`);
          } else {
            const done = report ? `; scrubbed from the store's files (${report.steps.join(", ") || "nothing to do"})` : "";
            cliOut(`forgot ${description}: ${unitsDeleted} memor${unitsDeleted === 1 ? "y" : "ies"} deleted${done}\n`);
          }
          if (report && !report.complete && report.note) cliErr(`warning: ${report.note}\n`);
        } finally {
          await memory.close();
        }
      }),
    );
}

type Target = { what: "unit" | "session"; id: string; namespace: string } | { what: "namespace"; namespace: string };

function forgetTarget(what: What, id: string | undefined, namespace: string | undefined): Target {
  if (what === "namespace") {
    if (id !== undefined && namespace !== undefined && id !== namespace) {
      throw new RamemError("BAD_OPTION", `forget namespace names two namespaces: ${echoValue(id)} and --namespace ${echoValue(namespace)}`, { hint: "name it once: ramem forget namespace NS" });
    }
    const ns = id ?? namespace;
    if (ns === undefined) throw new RamemError("BAD_OPTION", "forget namespace needs the namespace", { hint: "ramem forget namespace NS" });
    return { what, namespace: checkNamespace(ns, "namespace") };
  }
  if (id === undefined) throw new RamemError("BAD_OPTION", `forget ${what} needs the ${what} id`, { hint: `ramem forget ${what} ID --namespace NS (ids: ramem recall --json)` });
  if (namespace === undefined) {
    throw new RamemError("BAD_OPTION", `forget ${what} needs --namespace: ids are only unique within a namespace`, { hint: `ramem forget ${what} ${id.length > 40 ? "ID" : id} --namespace NS` });
  }
  return { what, id, namespace: checkNamespace(namespace, "--namespace") };
}

/** What will go, checked to exist first, so a typo is an error and not a silent "0 deleted". */
async function describeTarget(memory: Memory, target: Target): Promise<string> {
  const ns = echoValue(target.namespace);
  if (target.what === "namespace") {
    const s = await memory.store.stats(target.namespace);
    if (s.sessions === 0 && s.units === 0) throw new RamemError("NAMESPACE_NOT_FOUND", `namespace ${ns} holds nothing in ${memory.store.location}`, { hint: "see the namespaces with `ramem stats`" });
    return `namespace ${ns} (${s.sessions} sessions, ${s.units} memories)`;
  }
  if (target.what === "session") {
    const s = await memory.store.getSession(target.namespace, target.id);
    if (!s) throw new RamemError("NOT_FOUND", `no session ${echoValue(target.id)} in namespace ${ns}`, { hint: "use a session id from `ramem recall --json` (provenance.sessionId)" });
    return `session ${echoValue(target.id)} of namespace ${ns} (${s.unitCount} memories)`;
  }
  const [unit] = await memory.store.getUnits(target.namespace, [target.id]);
  if (!unit) throw new RamemError("NOT_FOUND", `no unit ${echoValue(target.id)} in namespace ${ns}`, { hint: "use a unit id from `ramem recall --json` (id)" });
  return `unit ${echoValue(target.id)} of namespace ${ns} (${echoValue(unit.content.slice(0, 80))})`;
}
