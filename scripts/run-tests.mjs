#!/usr/bin/env node
// Runs every src/**/*.test.ts with node's own test runner (Node 20 has no glob
// for --test, so the files are listed here). Extra args are passed through,
// e.g. `node scripts/run-tests.mjs src/store` runs only tests under src/store.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const roots = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const flags = process.argv.slice(2).filter((a) => a.startsWith("-"));
const files = [];
for (const root of roots.length ? roots : ["src"]) {
  if (root.endsWith(".test.ts")) { files.push(root); continue; }
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".test.ts")) files.push(join(entry.parentPath ?? entry.path, entry.name));
  }
}
files.sort();
if (files.length === 0) {
  console.error("no test files found under", roots.join(", ") || "src");
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", ...flags, ...files],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
