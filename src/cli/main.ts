#!/usr/bin/env node
import { runCli } from "./run-cli.js";

// `ramem recall ... | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

process.exitCode = await runCli(process.argv.slice(2));
