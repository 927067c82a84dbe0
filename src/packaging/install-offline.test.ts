/**
 * `npm i ramem` where the internet is out of reach. onnxruntime-node's install
 * script (an optional dependency) downloads CUDA files on Linux x64; the
 * download fails, npm removes the package without a word and exits 0. ramem
 * must then either run on onnxruntime anyway or stop at first use with the
 * one-line fix — not fall back to tfjs (2–8× slower) behind a warning.
 *
 * The install is real npm for onnxruntime-node: the packed ramem, with its
 * "dependencies" taken out of its package.json (better-sqlite3 and
 * hnswlib-node build from source without the network, minutes each), is
 * installed into a scratch project, so npm resolves onnxruntime-node as
 * ramem's optional dependency and runs its script as it does for a user. The
 * packages taken out are linked from this checkout's node_modules into the
 * scratch project's parent folder, where Node finds them and npm does not
 * touch them. npm fetches from its cache (--prefer-offline); the script's
 * download is sent to a closed local port (it honours only GLOBAL_AGENT_*
 * proxies), so it fails at once here and on machines with internet.
 *
 * Then the fix the error names is run as written, and ramem must embed on onnxruntime.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../cli/testing/run-cli.js";
import { packRamem } from "./testing/pack-ramem.js";
import { ONNX_INSTALL_FIX } from "../providers/use-lite/onnx-install-fix.js";

const CLOSED_PORT = "http://127.0.0.1:9";

/** The environment of an install that cannot download: no skip flag from the caller's environment, every download to a closed port. */
function installEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(ONNXRUNTIME_NODE_INSTALL|npm_config_onnxruntime_node_install)/i.test(k)) env[k] = v;
  return { ...env, GLOBAL_AGENT_HTTP_PROXY: CLOSED_PORT, GLOBAL_AGENT_HTTPS_PROXY: CLOSED_PORT, npm_config_update_notifier: "false", ...extra };
}

function npmInstall(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): { status: number | null; log: string } {
  const r = spawnSync("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=info"], { cwd, env, encoding: "utf8", timeout: 300_000 });
  return { status: r.status, log: `${r.stdout}\n${r.stderr}` };
}

type Outcome = { ok: true; runtime: string; hits: number; warnings: string[] } | { ok: false; code?: string; message: string; hint?: string };

function embed(consumer: string): Outcome {
  const env = { ...process.env };
  delete env.RAMEM_USE_LITE_RUNTIME;
  const r = spawnSync(process.execPath, ["embed.mjs"], { cwd: consumer, env, encoding: "utf8", timeout: 180_000 });
  const line = r.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as Outcome;
  } catch {
    assert.fail(`embed.mjs printed no outcome (status ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
}

describe("npm install without internet", () => {
  let dir: string;
  let consumer: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ramem-offline-"));
    const { tarball } = await packRamem(dir);
    const stub = join(dir, "stub");
    mkdirSync(stub);
    execFileSync("tar", ["-xzf", tarball, "-C", stub]);
    const pkgPath = join(stub, "package", "package.json");
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8")) as Record<string, unknown>;
    for (const key of ["dependencies", "devDependencies", "peerDependencies", "peerDependenciesMeta", "scripts", "allowScripts"]) delete pkg[key];
    assert.ok((pkg.optionalDependencies as Record<string, string>)["onnxruntime-node"], "ramem declares onnxruntime-node optional");
    writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
    execFileSync("tar", ["-czf", join(dir, "ramem.tgz"), "-C", stub, "package"]);
    // What ramem's "dependencies" would have installed: above the project, out of npm's sight.
    mkdirSync(join(dir, "node_modules"));
    for (const entry of readdirSync(join(ROOT, "node_modules"))) {
      if (entry.startsWith(".") || entry === "onnxruntime-node") continue;
      symlinkSync(join(ROOT, "node_modules", entry), join(dir, "node_modules", entry), "dir");
    }
    consumer = join(dir, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module", dependencies: { ramem: "file:../ramem.tgz" } }));
    writeFileSync(
      join(consumer, "embed.mjs"),
      `import { openMemory, createUseLiteEmbedder } from "ramem";
const warnings = [];
process.on("warning", (w) => warnings.push(w.code ?? w.name));
try {
  const memory = await openMemory({ db: ":memory:", embedder: "use-lite", languageModel: null, env: {} });
  await memory.add([{ role: "user", content: "I keep bees in Porto." }]);
  const { hits } = await memory.recall("bees");
  await memory.close();
  // The model is loaded once per process: this is the runner the memory embedded with.
  const { runtime } = await createUseLiteEmbedder();
  console.log(JSON.stringify({ ok: true, runtime, hits: hits.length, warnings }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, code: e.code, message: String(e.message), hint: e.hint }));
}
`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("gives onnxruntime, or stops at first use with the one-line fix; the fix, run as written, gives onnxruntime", (t) => {
    const first = npmInstall(consumer, installEnv(), ["install"]);
    assert.equal(first.status, 0, `npm install failed:\n${first.log}`);
    const installed = existsSync(join(consumer, "node_modules", "onnxruntime-node", "package.json"));
    const scriptRan = /run onnxruntime-node@\S+ (postinstall|install)/.test(first.log);
    if (!installed && !scriptRan) {
      t.skip("npm could not fetch onnxruntime-node (neither in its cache nor reachable)");
      return;
    }
    t.diagnostic(installed ? "onnxruntime-node installed: its script had nothing to download" : "npm removed onnxruntime-node after its script failed");
    const before = embed(consumer);
    if (installed) {
      // Where the script had nothing to download (not Linux x64) or was told to skip.
      assert.deepEqual(before.ok && before.runtime, "onnx", JSON.stringify(before));
    } else {
      // The failure npm did not report: the script ran, failed, and npm removed the package.
      assert.match(first.log, /onnxruntime-node@\S+ postinstall \{ code: [1-9]/, first.log);
      assert.equal(before.ok, false, `ramem ran without onnxruntime-node instead of naming the fix: ${JSON.stringify(before)}`);
      if (!before.ok) {
        assert.equal(before.code, "EMBEDDER_LOAD");
        assert.ok(before.message.includes(ONNX_INSTALL_FIX), before.message);
        assert.match(before.hint ?? "", /RAMEM_USE_LITE_RUNTIME=tfjs/);
      }
    }
    // The fix as the message writes it: VAR=value assignments, then the command.
    const words = ONNX_INSTALL_FIX.split(" ");
    const assignments = Object.fromEntries(words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split("=") as [string, string]));
    const [command, ...args] = words.filter((w) => !/^[A-Z_]+=/.test(w));
    assert.equal(command, "npm");
    const fixed = npmInstall(consumer, installEnv(assignments), args);
    assert.equal(fixed.status, 0, fixed.log);
    assert.ok(existsSync(join(consumer, "node_modules", "onnxruntime-node", "package.json")), `the fix installed onnxruntime-node:\n${fixed.log}`);
    const after = embed(consumer);
    assert.ok(after.ok, JSON.stringify(after));
    if (after.ok) {
      assert.equal(after.runtime, "onnx");
      assert.ok(after.hits >= 1);
      assert.ok(!after.warnings.includes("RAMEM_USE_LITE_TFJS"), JSON.stringify(after.warnings));
    }
  });
});
