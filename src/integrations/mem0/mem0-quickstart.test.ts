/**
 * examples/mem0-quickstart.ts runs as a user runs it (`npx tsx`), with
 * "ramem/mem0" resolved to this folder's source instead of dist/ (a resolve
 * hook registered before the example loads), against a temp SQLite file
 * bound to the hash embedder. And the example is Mem0's quickstart with only
 * the import changed: its one import is ramem/mem0's Memory.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { openMemory } from "../../open-memory.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples", "mem0-quickstart.ts");
const ENTRY = pathToFileURL(join(ROOT, "src", "integrations", "mem0", "index.ts")).href;

/** A module that registers a resolve hook sending "ramem/mem0" to the source entry (tsx, registered before it, compiles it). */
function sourceResolver(): string {
  const hook = `export async function resolve(specifier, context, next) { return next(specifier === "ramem/mem0" ? ${JSON.stringify(ENTRY)} : specifier, context); }`;
  // It says on stderr where ramem/mem0 resolved: dist/ may hold a build too, and the test must run the source.
  const register =
    `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});` +
    `console.error("ramem/mem0 ->", import.meta.resolve("ramem/mem0"));`;
  return `data:text/javascript,${encodeURIComponent(register)}`;
}

describe("examples/mem0-quickstart.ts", () => {
  it("is Mem0's quickstart with only the import changed", () => {
    const imports = readFileSync(EXAMPLE, "utf8").split("\n").filter((l) => /^\s*import\b/.test(l));
    assert.deepEqual(imports, ['import { Memory } from "ramem/mem0";']);
  });

  it("runs against ramem/mem0 offline: add, search, getAll, get, update, history, delete, deleteAll, reset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-mem0-example-"));
    try {
      const db = join(dir, "quickstart.db");
      // Bound to the hash embedder first: the example's new Memory() keeps the store's embedder (no model to load here).
      const seed = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
      await seed.store.bindEmbedder(seed.embedder.id, seed.embedder.dimensions);
      await seed.close();
      // cwd is the temp folder (a stray ./ramem.db lands there), so tsx is named by its resolved URL.
      const env = { ...process.env, RAMEM_DB: db, RAMEM_EMBEDDINGS_MODEL: "", RAMEM_EMBEDDINGS_BASE_URL: "", RAMEM_LLM_MODEL: "", RAMEM_LLM_BASE_URL: "" };
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", import.meta.resolve("tsx"), "--import", sourceResolver(), EXAMPLE], { cwd: dir, env, timeout: 60_000 });
      assert.ok(stderr.includes(`ramem/mem0 -> ${ENTRY}`), stderr);
      const lines = stdout.trim().split("\n");
      assert.equal(lines[0], "add: 4 memories");
      assert.ok(lines.some((l) => /^search: 0\.\d{3} .*sci-fi/.test(l)), stdout);
      assert.ok(lines.includes("getAll: 5 memories"), stdout);
      assert.ok(lines.includes("history: UPDATE, ADD"), stdout);
      assert.ok(lines.includes("delete: Memory deleted successfully!"), stdout);
      assert.ok(lines.includes("deleteAll: Memories deleted successfully!"), stdout);
      assert.equal(lines.at(-1), "reset: done");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
