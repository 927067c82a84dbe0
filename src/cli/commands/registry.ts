import { Command } from "commander";
import { RamemError } from "../../model/errors.js";
import { cliErr, setExitCode } from "../io.js";

/**
 * Every command of `ramem`, as the top-level help lists it, and how to load
 * it. A command's module (and whatever it imports: the store drivers, the
 * embedding model, the server) is imported only when that command runs or
 * shows its own help, so `ramem --version` and `ramem --help` load commander
 * and nothing else.
 */
export interface CommandEntry {
  name: string;
  /** Its arguments as the top-level help shows them. */
  args: string;
  summary: string;
  load: () => Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: "demo", args: "", summary: "Ingest the bundled sample conversation and run a few recalls, offline", load: async () => (await import("./demo.js")).demoCommand() },
  { name: "ingest", args: "<file>", summary: "Anchor a conversation file (native JSON/JSONL, OpenAI-style messages, LoCoMo, LongMemEval) into memory units", load: async () => (await import("./ingest.js")).ingestCommand() },
  { name: "recall", args: "<query>", summary: "Recall the memory units that best answer a query, with their episodic context and why", load: async () => (await import("./recall.js")).recallCommand() },
  { name: "ask", args: "<question>", summary: "Recall, then answer with the configured LLM (or print the evidence pack)", load: async () => (await import("./ask.js")).askCommand() },
  { name: "stats", args: "", summary: "What the store holds, per namespace", load: async () => (await import("./stats.js")).statsCommand() },
  { name: "bench", args: "", summary: "Reproducible benchmarks (LoCoMo, LongMemEval, latency, scale, reliability); from a source checkout", load: loadBench },
  { name: "mcp", args: "", summary: "Serve the store to an agent over MCP on stdio", load: async () => (await import("./mcp.js")).mcpCommand() },
  { name: "serve", args: "", summary: "Serve the REST API, MCP over HTTP and the inspector web UI at /ui", load: async () => (await import("./serve.js")).serveCommand() },
  { name: "ui", args: "", summary: "Serve the inspector web UI (and the API it reads) and print its URL", load: async () => (await import("./serve.js")).serveCommand("ui") },
  { name: "keys", args: "", summary: "Manage the server's API keys: create, list, revoke", load: async () => (await import("./keys.js")).keysCommand() },
  { name: "export", args: "", summary: "Write a namespace as JSONL with its vectors", load: async () => (await import("./export.js")).exportCommand() },
  { name: "import", args: "<file>", summary: "Restore an export into an empty namespace", load: async () => (await import("./import.js")).importCommand() },
  { name: "reanchor", args: "", summary: "Re-derive a namespace's units from their verbatim turns (a better anchorer)", load: async () => (await import("./reanchor.js")).reanchorCommand() },
  { name: "reindex", args: "", summary: "Rebuild a PostgreSQL store's HNSW index in one go (after a bulk load)", load: async () => (await import("./reindex.js")).reindexCommand() },
  { name: "backup", args: "<file>", summary: "Write a consistent copy of a SQLite store, also while it serves", load: async () => (await import("./backup.js")).backupCommand() },
  { name: "forget", args: "<what> [id]", summary: "Delete a unit, a session or a namespace, down to the bytes", load: async () => (await import("./forget.js")).forgetCommand() },
];

/**
 * The benchmark harness is not in the npm package (it is research code with
 * its own data): from a checkout it loads; from the package, `ramem bench`
 * says where to get it. The specifier is a variable so the build does not
 * follow it into src/bench.
 */
async function loadBench(): Promise<Command> {
  const specifier = "./bench.js";
  try {
    return ((await import(specifier)) as { benchCommand: () => Command }).benchCommand();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    return new Command("bench")
      .description("Benchmarks run from a source checkout of ramem, not from the npm package.")
      .allowUnknownOption()
      .argument("[args...]")
      .action(() => {
        const err = new RamemError("BENCH_NOT_SHIPPED", "the benchmarks are not part of the npm package", {
          hint: "clone the ramem repository, npm ci, then npm run ramem -- bench ... (see its README › Numbers)",
        });
        cliErr(`error: ${err.describe()}\n`);
        setExitCode(2);
      });
  }
}
