import { InvalidArgumentError, Option, type Command } from "commander";
// Types only and the names: open-memory.js (every embedder and the anchorer) loads when a command opens a Memory.
import type { AnchorerName } from "../open-memory.js";
import { EMBEDDER_NAMES, type EmbedderName } from "../open-memory-names.js";
import type { Memory } from "../memory.js";
import { RamemError } from "../model/errors.js";
import { openStore } from "../store/open-store.js";
import { resolveStoreLocation } from "./store-location.js";
import { cliOut, cliErr, setExitCode } from "./io.js";

export interface CommonOptions {
  /** Only when given on the command line; the default is resolved by resolveStoreLocation. */
  db?: string;
  store?: string;
  namespace?: string;
  embedder?: EmbedderName;
  json?: boolean;
}

/** `json: false` for a command whose stdout is not ours to format (`ramem mcp`: the protocol). */
export function addStoreOptions(cmd: Command, { json = true }: { json?: boolean } = {}): Command {
  cmd
    .option("--db <path>", "SQLite file of the embedded store (default: $RAMEM_DB, else ./ramem.db)")
    .option("--store <location>", "store location: a postgres://USER:PASS@HOST:PORT/DB[?schema=NAME] URL or a SQLite file (default: $RAMEM_STORE)")
    .addOption(
      new Option("--embedder <name>", "embedding model (openai needs RAMEM_EMBEDDINGS_MODEL; default: openai when that is set, else use-lite, offline)").choices(
        EMBEDDER_NAMES as string[],
      ),
    );
  return json ? cmd.option("--json", "machine-readable output on stdout") : cmd;
}

/**
 * `mustExist`: the command only reads, so a SQLite path holding no store is an
 * error, not a new empty file. `anchorer`: how a writing command anchors turns.
 */
export async function openFromOptions(opts: CommonOptions, open: { mustExist?: boolean; anchorer?: AnchorerName; embedderThreads?: number; anchorerThreads?: number } = {}): Promise<Memory> {
  const store = await openStore(resolveStoreLocation(opts), open.mustExist ? { mustExist: true } : {});
  try {
    const { openMemory } = await import("../open-memory.js");
    return await openMemory({
      store,
      ...(opts.embedder ? { embedder: opts.embedder } : {}),
      ...(opts.namespace ? { defaultNamespace: opts.namespace } : {}),
      ...(open.anchorer ? { anchorer: open.anchorer } : {}),
      ...(open.embedderThreads ? { embedderThreads: open.embedderThreads } : {}),
      ...(open.anchorerThreads ? { anchorerThreads: open.anchorerThreads } : {}),
    });
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** A repeatable option whose values may also be comma-separated: `--x a --x b,c` → ["a", "b", "c"]. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(",").map((s) => s.trim()).filter(Boolean)];
}

export function parsePositiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    // commander reports this as a usage error naming the option (exit 2 via main.ts).
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}".`);
    return n;
  };
}

/** A whole number from 0 to `max` (commander reports a bad one as a usage error naming the option). */
export function parseWholeNumber(name: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || n > max) throw new InvalidArgumentError(`${name} must be a whole number from 0 to ${max}, got "${value}".`);
    return n;
  };
}

/** Runs a command body; user errors print where/what/hint and exit 2, bugs exit 1. */
export async function runAction(json: boolean | undefined, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof RamemError) {
      if (json) cliOut(`${JSON.stringify({ error: { code: err.code, message: err.message, where: err.where, hint: err.hint } })}\n`);
      cliErr(`error: ${err.describe()}\n`);
      setExitCode(2);
      return;
    }
    throw err;
  }
}

export function parseIsoOption(name: string, value: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new RamemError("BAD_OPTION", `${name} must be an ISO date such as 2023-10-10 or 2023-10-10T12:00:00Z, got "${value}"`, {
      hint: `write it as YYYY-MM-DD (optionally with a time and zone), e.g. ${name} 2023-10-10`,
    });
  return new Date(t).toISOString();
}
