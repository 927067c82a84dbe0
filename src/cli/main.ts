#!/usr/bin/env node
import { Command } from "commander";
import { ingestCommand } from "./commands/ingest.js";
import { recallCommand } from "./commands/recall.js";
import { statsCommand } from "./commands/stats.js";
import { demoCommand } from "./commands/demo.js";
import { benchCommand } from "./commands/bench.js";

const program = new Command("ramem")
  .description(
    "Long-term memory for LLM agents: stores conversations as memory units anchored in their episode\n" +
      "(when, who, where, which session) and recalls evidence from the right episode. Offline by default.",
  )
  .version("0.1.0")
  .showHelpAfterError("(run with --help for usage)")
  .addCommand(demoCommand())
  .addCommand(ingestCommand())
  .addCommand(recallCommand())
  .addCommand(statsCommand())
  .addCommand(benchCommand());

program.addHelpText(
  "after",
  `
Examples:
  ramem demo
  ramem ingest --format locomo locomo10.json
  ramem recall --namespace conv-26 "When did Caroline go to the LGBTQ support group?"
  ramem stats --json

Environment:
  RAMEM_DB                    default for --db (else ./ramem.db)
  RAMEM_EMBEDDINGS_BASE_URL   use an OpenAI-compatible embeddings endpoint instead of the offline model
  RAMEM_LLM_BASE_URL          OpenAI-compatible chat endpoint (optional: answers and LLM anchoring)`,
);

await program.parseAsync(process.argv);
