// Proves that a change to the rule anchorer leaves its output byte-identical:
// anchors every session of LoCoMo and of the LongMemEval dev split with an old
// checkout's anchorer and with this checkout's, and compares the JSON of every
// session's units. Bench caches are keyed by the anchorer's id, so a change
// that alters any unit must bump the id (and costs a ~40 min re-ingest); one
// that does not must show 0 differences here.
//
// Usage:
//   git archive <old commit> src package.json | tar -x -C tmp/baseline
//   node --import tsx research/compare-anchorer-output.ts --old tmp/baseline [--new .] [--out tmp/anchor-compare] [--reuse-old] [--reuse-new] [--prefix]
//
// Each side runs in its own process (its own copy of compromise and chrono, so
// neither can change the other's lexicon), both at once: on 2 cores the old
// anchorer takes ~25 min over the LongMemEval split. --reuse-old keeps an old
// side's output from an earlier run (it is keyed by nothing but its path),
// --reuse-new the new side's; --prefix compares the sessions both files hold
// when one run was cut short (the report says how many). A side can be split
// over processes with `--emit <root> --to <file> --range a:b` and the parts
// concatenated in order.
// Inputs are read by this checkout's readers for both sides, so they are the
// same sessions. Exit code 1 when anything differs.
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdirSync } from "node:fs";
import { resolve, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL, fileURLToPath } from "node:url";
import { readConversationFile } from "../src/formats/conversation-file.js";
import type { Anchorer } from "../src/anchoring/anchorer.js";

const DATASETS = [
  { name: "locomo", path: "/work/shared/datasets/locomo/locomo10.json" },
  { name: "longmemeval-dev", path: "/work/shared/datasets/longmemeval/longmemeval_s_dev100.json" },
];

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Child mode: anchor every session with the anchorer under `root` and write one JSON line per session. */
async function emit(root: string, to: string, range: { from: number; to: number }): Promise<void> {
  const module = (await import(pathToFileURL(join(root, "src/anchoring/rule-anchorer.ts")).href)) as { createRuleAnchorer(): Anchorer };
  const anchorer = module.createRuleAnchorer();
  const out = createWriteStream(to);
  const started = performance.now();
  let units = 0;
  let index = -1;
  for (const dataset of DATASETS) {
    const { conversations } = await readConversationFile(dataset.path);
    for (const session of conversations.flatMap((c) => c.sessions)) {
      index++;
      if (index < range.from || index >= range.to) continue;
      const result = await anchorer.anchorSession(session);
      units += result.units.length;
      const line = `${JSON.stringify({ dataset: dataset.name, namespace: session.session.namespace, session: session.session.id, anchorer: anchorer.id, ...result })}\n`;
      if (!out.write(line)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
  }
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
  const seconds = (performance.now() - started) / 1000;
  console.error(`${root}: ${units} units in ${seconds.toFixed(1)} s (${(units / seconds).toFixed(1)} units/s)`);
}

function runChild(root: string, to: string): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [...process.execArgv, script, "--emit", root, "--to", to], { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? ok() : fail(new Error(`anchoring with ${root} exited with ${code}`))));
  });
}

async function* lines(path: string): AsyncGenerator<string> {
  yield* createInterface({ input: createReadStream(path), crlfDelay: Infinity });
}

async function compare(oldPath: string, newPath: string, prefix: boolean): Promise<{ sessions: number; differing: number; units: number; differingUnits: number; examples: string[] }> {
  const a = lines(oldPath);
  const b = lines(newPath);
  const result = { sessions: 0, differing: 0, units: 0, differingUnits: 0, examples: [] as string[] };
  for (;;) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done && y.done) return result;
    if (x.done || y.done) {
      // --prefix: sides of unequal length (a run cut short) are compared over the sessions both hold.
      if (prefix) return result;
      throw new Error("the two sides anchored a different number of sessions");
    }
    result.sessions++;
    const ox = JSON.parse(x.value) as { session: string; units: unknown[] };
    const oy = JSON.parse(y.value) as { session: string; units: unknown[] };
    result.units += ox.units.length;
    if (x.value === y.value) continue;
    result.differing++;
    const n = Math.max(ox.units.length, oy.units.length);
    for (let i = 0; i < n; i++) {
      const ux = JSON.stringify(ox.units[i]);
      const uy = JSON.stringify(oy.units[i]);
      if (ux === uy) continue;
      result.differingUnits++;
      if (result.examples.length < 5) result.examples.push(`session ${ox.session} unit ${i}:\n  old ${ux}\n  new ${uy}`);
    }
  }
}

async function main(): Promise<void> {
  const emitRoot = argValue("--emit");
  // --range a:b anchors only sessions a..b-1 (in the order above), to split a run over processes.
  const [from, to] = (argValue("--range") ?? "0:").split(":").map((x) => (x === "" ? Infinity : Number(x)));
  if (emitRoot) return emit(resolve(emitRoot), argValue("--to")!, { from: from === Infinity ? 0 : from!, to: to! });
  const oldRoot = argValue("--old");
  if (!oldRoot) throw new Error("pass --old <checkout root> (e.g. tmp/baseline from git archive)");
  const newRoot = argValue("--new") ?? ".";
  const outDir = resolve(argValue("--out") ?? "tmp/anchor-compare");
  mkdirSync(outDir, { recursive: true });
  const oldOut = join(outDir, "old.jsonl");
  const newOut = join(outDir, "new.jsonl");
  const reuse = (side: string, path: string) => process.argv.includes(`--reuse-${side}`) && existsSync(path);
  await Promise.all([reuse("old", oldOut) ? Promise.resolve() : runChild(resolve(oldRoot), oldOut), reuse("new", newOut) ? Promise.resolve() : runChild(resolve(newRoot), newOut)]);
  const r = await compare(oldOut, newOut, process.argv.includes("--prefix"));
  console.log(`sessions compared: ${r.sessions}, units: ${r.units}`);
  console.log(`differing sessions: ${r.differing}, differing units: ${r.differingUnits}`);
  for (const e of r.examples) console.log(e);
  process.exitCode = r.differing === 0 ? 0 : 1;
}

await main();
