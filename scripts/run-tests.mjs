#!/usr/bin/env node
// Runs every src/**/*.test.ts with node's own test runner (Node 20 has no glob
// for --test, so the files are listed here). Extra args are passed through,
// e.g. `node scripts/run-tests.mjs src/store` runs only tests under src/store.
// The runner's report goes to the terminal as it comes; the last line is one
// summary of the whole run (tests, pass, fail, skipped, wall time).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";

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
const started = performance.now();
const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...flags, ...files], { stdio: ["inherit", "pipe", "inherit"] });
// The TAP reporter's closing counts ("# pass 12"): read as they stream past, for the summary.
const counts = {};
let tail = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  const text = tail + chunk.toString();
  const lines = text.split("\n");
  tail = lines.pop() ?? "";
  for (const line of lines) {
    const m = /^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
    if (m) counts[m[1]] = Number(m[2]);
  }
});
child.on("close", (code, signal) => {
  const seconds = (performance.now() - started) / 1000;
  const n = (k) => counts[k] ?? 0;
  const duration = seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
  console.log(`\nramem tests: ${n("tests")} tests, ${n("pass")} passed, ${n("fail") + n("cancelled")} failed, ${n("skipped") + n("todo")} skipped in ${duration} (${files.length} files)`);
  process.exit(code ?? (signal ? 1 : 0));
});
