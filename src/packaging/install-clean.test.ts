/**
 * The package as a user gets it: `npm pack` (which builds), the tarball's
 * file list, then an install into a fresh consumer project and strict `tsc`
 * there with skipLibCheck off, over a file that imports every entry and over
 * the examples; then the bin and the entries run. A .d.ts that names a type
 * of a dev dependency, a missing entry or a broken example fails here.
 *
 * The install is offline: the tarball is unpacked as node_modules/ramem and
 * the packages it and its peers need are linked from this checkout's
 * node_modules (which `npm ci` filled from the lockfile) — all of them but
 * the type packages of ramem's dev dependencies (@types/pg,
 * @types/better-sqlite3, @types/cli-progress), which a user does not have.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../cli/testing/run-cli.js";
import { packRamem } from "./testing/pack-ramem.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });

/** Dev dependencies whose types a user never has: the public .d.ts must not need them. */
const DEV_ONLY_TYPES = new Set(["pg", "better-sqlite3", "cli-progress"]);

function installOffline(tarball: string, consumer: string): void {
  const modules = join(consumer, "node_modules");
  mkdirSync(join(modules, "@types"), { recursive: true });
  const unpacked = join(consumer, "unpacked");
  mkdirSync(unpacked);
  run("tar", ["-xzf", tarball, "-C", unpacked], consumer);
  renameSync(join(unpacked, "package"), join(modules, "ramem"));
  const source = join(ROOT, "node_modules");
  for (const entry of readdirSync(source)) {
    if (entry.startsWith(".") || entry === "ramem") continue;
    if (entry === "@types") {
      for (const t of readdirSync(join(source, entry))) if (!DEV_ONLY_TYPES.has(t)) symlinkSync(join(source, entry, t), join(modules, entry, t), "dir");
      continue;
    }
    symlinkSync(join(source, entry), join(modules, entry), "dir");
  }
}

describe("the npm package installs clean", () => {
  let dir: string;
  let tarball: string;
  let files: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-pack-"));
    ({ tarball, files } = await packRamem(dir));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("ships the library, its entries and the docs the README links to; no tests, test helpers, contract suites, bench code or source maps", () => {
    for (const entry of ["dist/index.js", "dist/index.d.ts", "dist/server/index.js", "dist/integrations/ai-sdk/index.d.ts", "dist/integrations/langchain/index.d.ts", "dist/integrations/mem0/index.d.ts", "dist/integrations/langgraph/index.d.ts", "dist/cli/main.js", "cjs/require-error.cjs", "README.md", "package.json"]) {
      assert.ok(files.includes(entry), `ships ${entry}`);
    }
    // The inspector: its built page and bundle, not its sources.
    assert.ok(files.includes("dist/ui/index.html"), "ships the inspector's page");
    assert.ok(files.some((f) => /^dist\/ui\/assets\/.+\.js$/.test(f)), "ships the inspector's bundle");
    assert.ok(!files.some((f) => f.startsWith("src/server/ui/web/") && !f.endsWith("README.md")), "not the inspector's sources");
    const unwanted = files.filter((f) => /\.map$|\.test\.|\/testing\/|contract-suite|^dist\/bench\/|commands\/bench\.|^src\/.*\.ts$/.test(f));
    assert.deepEqual(unwanted, []);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const links = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)].map((m) => m[1]!.replace(/^\.\//, ""));
    assert.ok(links.length > 0);
    for (const link of links) assert.ok(files.some((f) => f === link || f.startsWith(`${link.replace(/\/$/, "")}/`)), `README links to ${link}, which the package ships`);
  });

  it("strict tsc (skipLibCheck off) in a consumer compiles imports of every entry and the examples; the bin runs", () => {
    const consumer = join(dir, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] }, include: ["*.ts", "examples/*.ts"] }),
    );
    writeFileSync(
      join(consumer, "uses-every-entry.ts"),
      `import { openMemory, Memory, parseFilter, type RecallHit, type AddMessage } from "ramem";
import { startServer } from "ramem/server";
import { ramemMiddleware, rememberTool, recallTool, withRamem } from "ramem/ai-sdk";
import { RamemRetriever, RamemChatMessageHistory } from "ramem/langchain";
import { Memory as Mem0Memory } from "ramem/mem0";
import { RamemStore } from "ramem/langgraph";
export async function use(): Promise<number> {
  const memory: Memory = await openMemory({ db: ":memory:", embedder: "hash" });
  const messages: AddMessage[] = [{ role: "user", content: "hi" }];
  await memory.add(messages, { metadata: { a: 1 } });
  const hits: RecallHit[] = (await memory.recall("hi", { filter: { "metadata.a": { gte: 1 } }, minScore: 0.1 })).hits;
  void [startServer, ramemMiddleware, rememberTool, recallTool, withRamem, RamemRetriever, RamemChatMessageHistory, parseFilter, Mem0Memory, RamemStore];
  return hits.length;
}
`,
    );
    cpSync(join(ROOT, "examples"), join(consumer, "examples"), { recursive: true });
    // The AI SDK's own .d.ts (@ai-sdk/provider) import the untyped "json-schema" package; its users add @types/json-schema. Not ramem's: a one-line stand-in.
    writeFileSync(join(consumer, "json-schema.d.ts"), 'declare module "json-schema" { export type JSONSchema7 = Record<string, unknown>; export type JSONSchema7Definition = JSONSchema7 | boolean; }\n');
    installOffline(tarball, consumer);
    const tsc = join(consumer, "node_modules", "typescript", "bin", "tsc");
    try {
      run(process.execPath, [tsc, "-p", "."], consumer);
    } catch (err) {
      assert.fail(`strict tsc failed in the consumer:\n${(err as { stdout?: string }).stdout ?? String(err)}`);
    }
    assert.equal(run(process.execPath, [join(consumer, "node_modules", "ramem", "dist", "cli", "main.js"), "--version"], consumer).trim(), pkg.version);
    writeFileSync(
      join(consumer, "smoke.mjs"),
      `import { openMemory } from "ramem";
import { withRamem } from "ramem/ai-sdk";
import { RamemRetriever } from "ramem/langchain";
const memory = await openMemory({ db: ":memory:", embedder: "hash", languageModel: null, env: {} });
await memory.add([{ role: "user", content: "I keep bees in Porto." }]);
const docs = await new RamemRetriever({ memory }).invoke("bees");
console.log(JSON.stringify({ docs: docs.length, wrap: typeof withRamem }));
await memory.close();
`,
    );
    assert.deepEqual(JSON.parse(run(process.execPath, ["smoke.mjs"], consumer)), { docs: 1, wrap: "function" });
    // The installed server serves the shipped inspector at /ui/ (found from dist/server/ui/, not a checkout).
    writeFileSync(
      join(consumer, "ui-smoke.mjs"),
      `import { openMemory } from "ramem";
import { startServer, openApiKeyStore } from "ramem/server";
const memory = await openMemory({ db: ":memory:", embedder: "hash", languageModel: null, env: {} });
const server = await startServer({ memory, keys: await openApiKeyStore(":memory:"), port: 0, warn: () => {} });
const page = await fetch(server.uiUrl);
const html = await page.text();
const script = /src="\\.\\/(assets\\/[^"]+\\.js)"/.exec(html)?.[1];
const js = script ? await fetch(server.uiUrl + script) : null;
console.log(JSON.stringify({ page: page.status, title: /<title>ramem inspector<\\/title>/.test(html), js: js?.status ?? null }));
await server.close();
await memory.close();
`,
    );
    assert.deepEqual(JSON.parse(run(process.execPath, ["ui-smoke.mjs"], consumer)), { page: 200, title: true, js: 200 });
  });
});
