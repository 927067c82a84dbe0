import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, runCli } from "../testing/run-cli.js";

test("ramem stats opens only the store: no embedder, anchorer, language model or Memory is loaded", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-stats-"));
  try {
    const db = join(dir, "s.db");
    assert.equal((await runCli(["ingest", join(ROOT, "examples", "sample-conversation.json"), "--db", db, "--embedder", "hash"])).code, 0);
    // A resolve hook in the child records every module it loads, dynamic imports included.
    const log = join(dir, "loaded.txt");
    writeFileSync(
      join(dir, "hooks.mjs"),
      `import { appendFileSync } from "node:fs";\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + "\\n"); return r; }\n`,
    );
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
    const run = spawnSync(process.execPath, ["--import", "tsx", "--import", pathToFileURL(join(dir, "register.mjs")).href, "src/cli/main.ts", "stats", "--db", db, "--json"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, RAMEM_EMBEDDINGS_MODEL: "", RAMEM_LLM_MODEL: "", RAMEM_STORE: "", RAMEM_DB: "" },
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).units > 0, true);
    const loaded = readFileSync(log, "utf8");
    assert.match(loaded, /\/src\/store\/open-store\.ts/, "the hook sees the command's modules");
    for (const heavy of ["/src/open-memory.ts", "/src/memory.ts", "/node_modules/compromise/", "/node_modules/gpt-tokenizer/", "/node_modules/onnxruntime-node/", "/node_modules/@energetic-ai/"]) {
      // The anchorer's NLP and the evidence pack's tokenizer were most of the command's second.
      assert.ok(!loaded.includes(heavy), `stats loads ${heavy}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
