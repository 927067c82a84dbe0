#!/usr/bin/env node
// Runs every src/**/*.test.ts with node's own test runner (Node 20 has no glob
// for --test, so the files are listed here). Extra args are passed through,
// e.g. `node scripts/run-tests.mjs src/store` runs only tests under src/store.
// The runner's report goes to the terminal as it comes; the last line is one
// summary of the whole run (tests, pass, fail, skipped, wall time).
//
// Files start longest first (scripts/test-times.json, the seconds each file
// took in a whole run; files not in it first of all): node's runner takes them
// in the order given, two at a time, and a long file started last runs on
// alone at the end while the other core idles.
//
// `--save-times` writes that file: it runs each file in a `node --test`
// process of its own, two at a time, and times the process whole. A file's own
// report cannot say it, because a test defined in a shared helper (the store
// contract suites, describeWithPostgres) is reported as the helper's.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";

const args = process.argv.slice(2);
const saveTimes = args.includes("--save-times");
const roots = args.filter((a) => !a.startsWith("-"));
const flags = args.filter((a) => a.startsWith("-") && a !== "--save-times");
const TIMES = new URL("./test-times.json", import.meta.url);
const files = [];
for (const root of roots.length ? roots : ["src"]) {
  if (root.endsWith(".test.ts")) { files.push(root); continue; }
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".test.ts")) files.push(join(entry.parentPath ?? entry.path, entry.name));
  }
}
if (files.length === 0) {
  console.error("no test files found under", roots.join(", ") || "src");
  process.exit(1);
}
const keyOf = (file) => file.split("\\").join("/");
let known = {};
try {
  known = JSON.parse(readFileSync(TIMES, "utf8"));
} catch {
  // No times yet: every file counts as unknown, and the order is by name.
}
const secondsOf = (f) => known[keyOf(f)] ?? Infinity;
files.sort((a, b) => secondsOf(b) - secondsOf(a) || (a < b ? -1 : a > b ? 1 : 0));

const started = performance.now();
const counts = {};
const n = (k) => counts[k] ?? 0;

/** Runs node's test runner on `list`, its report to `write`; adds its closing counts ("# pass 12") to `counts`. */
function runTests(list, write) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...flags, ...list], { stdio: ["inherit", "pipe", "inherit"] });
    let tail = "";
    child.stdout.on("data", (chunk) => {
      write(chunk);
      const text = tail + chunk.toString();
      const lines = text.split("\n");
      tail = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
        if (m) counts[m[1]] = (counts[m[1]] ?? 0) + Number(m[2]);
      }
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let code = 0;
if (!saveTimes) {
  code = await runTests(files, (chunk) => process.stdout.write(chunk));
} else {
  const queue = [...files];
  const seconds = {};
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const chunks = [];
      const t0 = performance.now();
      const exit = await runTests([file], (chunk) => chunks.push(chunk));
      seconds[keyOf(file)] = Math.round((performance.now() - t0) / 100) / 10;
      // One file's report at a time, whole, so two running side by side do not interleave.
      process.stdout.write(Buffer.concat(chunks));
      if (exit !== 0) code = exit;
    }
  };
  await Promise.all([worker(), worker()]);
  const sorted = Object.fromEntries(Object.entries({ ...known, ...seconds }).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(TIMES, JSON.stringify(sorted, null, 2) + "\n");
  console.log(`wrote scripts/test-times.json (${Object.keys(seconds).length} files timed)`);
}
const seconds = (performance.now() - started) / 1000;
const duration = seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
console.log(`\nramem tests: ${n("tests")} tests, ${n("pass")} passed, ${n("fail") + n("cancelled")} failed, ${n("skipped") + n("todo")} skipped in ${duration} (${files.length} files)`);
process.exit(code);
