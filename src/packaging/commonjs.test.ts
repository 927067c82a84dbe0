/**
 * ramem from a CommonJS project (a package.json without "type"), installed
 * from the packed tarball. ramem ships ES modules only; each entry of
 * "exports" has a "module-sync" condition (a Node.js whose require() loads ES
 * modules — ≥ 20.19, ≥ 22.12 — takes it for require() and import alike: one
 * copy of the module) and a "require" one for older Node.js, which throws
 * RAMEM_ESM_ONLY saying to use import() — instead of Node's own
 * ERR_PACKAGE_PATH_NOT_EXPORTED ("No exports main defined"), which is what a
 * TypeScript CommonJS project got at run time after tsc had accepted
 * `import { openMemory } from "ramem"`.
 *
 * The older Node.js is this one with `--no-experimental-require-module`,
 * which turns off require(esm) and the "module-sync" condition with it.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packRamem, unpackWithCheckoutModules } from "./testing/pack-ramem.js";

const requireEsm = (process.features as { require_module?: boolean }).require_module === true;

function node(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("ramem from CommonJS", () => {
  let dir: string;
  let consumer: string;
  let specifiers: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-cjs-"));
    const { tarball } = await packRamem(dir);
    consumer = join(dir, "consumer");
    mkdirSync(consumer);
    // What `npm init -y` writes: no "type", so .js files are CommonJS.
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", main: "index.js", license: "ISC" }));
    unpackWithCheckoutModules(tarball, consumer);
    const exportsMap = (JSON.parse(readFileSync(join(consumer, "node_modules", "ramem", "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports;
    specifiers = Object.keys(exportsMap)
      .filter((k) => k !== "./package.json")
      .map((k) => (k === "." ? "ramem" : `ramem/${k.slice(2)}`));
    writeFileSync(
      join(consumer, "require-each.js"),
      `const out = {};
for (const specifier of ${JSON.stringify(specifiers)}) {
  try {
    const ns = require(specifier);
    out[specifier] = { ok: Object.keys(ns).length };
  } catch (e) {
    out[specifier] = { code: e.code, message: e.message };
  }
}
console.log(JSON.stringify(out));
`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("every entry of the packed package.json takes require() to the ES module (module-sync) or to the refusal", () => {
    const pkg = JSON.parse(readFileSync(join(consumer, "node_modules", "ramem", "package.json"), "utf8")) as { exports: Record<string, Record<string, string>> };
    for (const [entry, conditions] of Object.entries(pkg.exports)) {
      if (entry === "./package.json") continue;
      // Order matters: Node.js takes the first condition it knows, so "module-sync" must come before "require".
      assert.deepEqual(Object.keys(conditions), ["types", "module-sync", "import", "require"], entry);
      assert.equal(conditions["module-sync"], conditions.import, entry);
      assert.equal(conditions.require, "./cjs/require-error.cjs", entry);
    }
    assert.ok(specifiers.includes("ramem") && specifiers.includes("ramem/server"));
  });

  it("on a Node.js without require(esm), require() of every entry throws RAMEM_ESM_ONLY naming await import()", () => {
    const r = node(consumer, [...(requireEsm ? ["--no-experimental-require-module"] : []), "require-each.js"]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, { ok?: number; code?: string; message?: string }>;
    for (const specifier of specifiers) {
      const got = out[specifier]!;
      assert.equal(got.code, "RAMEM_ESM_ONLY", `${specifier}: ${JSON.stringify(got)}`);
      assert.match(got.message!, /ramem is an ES module package/);
      assert.match(got.message!, /await import\("ramem"\)/);
    }
  });

  it("on a Node.js with require(esm), require() of every entry loads the same module as import()", { skip: !requireEsm && "this Node.js has no require(esm)" }, () => {
    const r = node(consumer, ["require-each.js"]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, { ok?: number; code?: string }>;
    for (const specifier of specifiers) assert.ok((out[specifier]!.ok ?? 0) > 0, `${specifier}: ${JSON.stringify(out[specifier])}`);
    writeFileSync(
      join(consumer, "same.js"),
      `import("ramem").then((imported) => console.log(JSON.stringify({ same: require("ramem").openMemory === imported.openMemory })));\n`,
    );
    const same = node(consumer, ["same.js"]);
    assert.equal(same.status, 0, same.stderr);
    // One copy: a second one would have its own caches and classes (instanceof would fail across them).
    assert.deepEqual(JSON.parse(same.stdout), { same: true });
  });

  it("await import(\"ramem\") from CommonJS opens memory, adds and recalls", () => {
    writeFileSync(
      join(consumer, "dynamic.js"),
      `(async () => {
  const { openMemory } = await import("ramem");
  const memory = await openMemory({ db: ":memory:", embedder: "hash", languageModel: null, env: {} });
  await memory.add([{ role: "user", content: "I keep bees in Porto." }]);
  const { hits } = await memory.recall("bees");
  await memory.close();
  console.log(JSON.stringify({ hits: hits.length }));
})();
`,
    );
    for (const flags of requireEsm ? [[], ["--no-experimental-require-module"]] : [[]]) {
      const r = node(consumer, [...flags, "dynamic.js"]);
      assert.equal(r.status, 0, r.stderr);
      assert.ok((JSON.parse(r.stdout) as { hits: number }).hits >= 1, r.stdout);
    }
  });

  it("a TypeScript CommonJS project: tsc accepts the import, and what it emits runs (or refuses with RAMEM_ESM_ONLY)", () => {
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, outDir: "out", types: ["node"] }, files: ["app.ts"] }));
    writeFileSync(join(consumer, "app.ts"), `import { openMemory } from "ramem";\nconsole.log(typeof openMemory);\n`);
    const tsc = node(consumer, [join(consumer, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    assert.match(readFileSync(join(consumer, "out", "app.js"), "utf8"), /require\("ramem"\)/);
    if (requireEsm) {
      const r = node(consumer, ["out/app.js"]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), "function");
    }
    const old = node(consumer, [...(requireEsm ? ["--no-experimental-require-module"] : []), "out/app.js"]);
    assert.notEqual(old.status, 0);
    assert.match(old.stderr, /RAMEM_ESM_ONLY|ramem is an ES module package/);
    assert.doesNotMatch(old.stderr, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
});
