#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { ingestCommand } from "./commands/ingest.js";
import { recallCommand } from "./commands/recall.js";
import { askCommand } from "./commands/ask.js";
import { statsCommand } from "./commands/stats.js";
import { demoCommand } from "./commands/demo.js";
import { benchCommand } from "./commands/bench.js";
import { mcpCommand } from "./commands/mcp.js";
import { serveCommand } from "./commands/serve.js";
import { keysCommand } from "./commands/keys.js";
import { exportCommand } from "./commands/export.js";
import { importCommand } from "./commands/import.js";
import { forgetCommand } from "./commands/forget.js";
import { reanchorCommand } from "./commands/reanchor.js";

// `ramem recall ... | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

const program = new Command("ramem")
  .description(
    "Long-term memory for LLM agents: stores conversations as memory units anchored in their episode " +
      "(when, who, where, which session) and recalls evidence from the right episode. Offline by default.",
  )
  .version("0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .addCommand(demoCommand())
  .addCommand(ingestCommand())
  .addCommand(recallCommand())
  .addCommand(askCommand())
  .addCommand(statsCommand())
  .addCommand(benchCommand())
  .addCommand(mcpCommand());

// Server commands, one line each so other branches' registrations merge cleanly.
program.addCommand(serveCommand());
program.addCommand(keysCommand());
program.addCommand(exportCommand());
program.addCommand(importCommand());
program.addCommand(forgetCommand());
program.addCommand(reanchorCommand());

program.addHelpText(
  "after",
  `
Examples:
  ramem demo
  ramem ingest --format locomo locomo10.json
  ramem recall --namespace conv-26 "When did Caroline go to the LGBTQ support group?"
  ramem ask --namespace conv-26 "What did Caroline do after the adoption meeting?"
  ramem stats --json
  ramem forget session s1 --namespace conv-26 --yes

Environment:
  RAMEM_DB                    default for --db (else ./ramem.db)
  RAMEM_STORE                 default for --store: a postgres:// URL (or a SQLite file); wins over RAMEM_DB
  RAMEM_EMBEDDINGS_MODEL      use an OpenAI-compatible embeddings endpoint instead of the offline model
  RAMEM_EMBEDDINGS_BASE_URL   (with RAMEM_EMBEDDINGS_API_KEY) where that endpoint is; default OpenAI
  RAMEM_LLM_MODEL             OpenAI-compatible chat model (optional: answers with \`ramem ask\`)
  RAMEM_LLM_BASE_URL          (with RAMEM_LLM_API_KEY) e.g. http://127.0.0.1:11434/v1 for Ollama`,
);

// Usage errors (unknown option value, missing argument) are user errors: exit 2 like every other one.
const withOverride = (cmd: Command): void => {
  cmd.exitOverride();
  cmd.commands.forEach(withOverride);
};
withOverride(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (!(err instanceof CommanderError)) throw err;
  if (err.exitCode !== 0) process.stderr.write("  hint: every command explains its options: ramem <command> --help\n");
  process.exitCode = err.exitCode === 0 ? 0 : 2;
}
