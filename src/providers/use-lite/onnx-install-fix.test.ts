import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RamemError } from "../../model/errors.js";
import { ROOT } from "../../cli/testing/run-cli.js";
import { ONNX_INSTALL_FIX, ONNX_SHIPPED_PLATFORMS, isOnnxRuntimeMissing, onnxInstallFailure } from "./onnx-install-fix.js";

/** The error a real `import("onnxruntime-node")` gives where the package is not installed, wrapped as load-onnx-use-lite.ts wraps it. */
async function missingPackageError(): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), "ramem-no-ort-"));
  try {
    writeFileSync(join(dir, "probe.mjs"), 'export const load = () => import("onnxruntime-node");\n');
    const { load } = (await import(pathToFileURL(join(dir, "probe.mjs")).href)) as { load: () => Promise<unknown> };
    const cause = await load().then(() => assert.fail("onnxruntime-node resolved from a temp dir"), (e: unknown) => e);
    return new RamemError("EMBEDDER_LOAD", `could not load the model on onnxruntime: ${(cause as Error).message}`, { cause });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("onnx install fix: missing where it ships stops with the one-line fix; elsewhere, or present but unloadable, falls back", async () => {
  const missing = await missingPackageError();
  assert.ok(isOnnxRuntimeMissing(missing));
  const err = onnxInstallFailure(missing, { platform: "linux", arch: "x64", glibc: true });
  assert.ok(err instanceof RamemError);
  assert.equal(err.code, "EMBEDDER_LOAD");
  assert.ok(err.message.endsWith(`Fix, in your project: ${ONNX_INSTALL_FIX}`), err.message);
  assert.match(err.hint ?? "", /RAMEM_USE_LITE_RUNTIME=tfjs/);
  assert.ok(onnxInstallFailure(missing, { platform: "win32", arch: "arm64", glibc: true }));
  // No binary for these: the fix would not help, so tfjs with a warning is right.
  assert.equal(onnxInstallFailure(missing, { platform: "darwin", arch: "x64", glibc: true }), undefined);
  assert.equal(onnxInstallFailure(missing, { platform: "linux", arch: "x64", glibc: false }), undefined);
  assert.equal(onnxInstallFailure(missing, { platform: "freebsd", arch: "x64", glibc: false }), undefined);
  // Installed but its binary does not load (old glibc): not an install failure.
  const unloadable = new RamemError("EMBEDDER_LOAD", "could not load", { cause: new Error("libonnxruntime.so.1: cannot open shared object file") });
  assert.equal(onnxInstallFailure(unloadable, { platform: "linux", arch: "x64", glibc: true }), undefined);
  // Another package missing is not this one.
  assert.equal(isOnnxRuntimeMissing(Object.assign(new Error("Cannot find package 'onnxruntime-common'"), { code: "ERR_MODULE_NOT_FOUND" })), false);
});

test("onnx install fix: the flag is the one onnxruntime-node's install script reads, and the platforms are the ones it has binaries for", () => {
  const ort = join(ROOT, "node_modules", "onnxruntime-node");
  const wanted = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { optionalDependencies: Record<string, string> }).optionalDependencies["onnxruntime-node"];
  assert.equal((JSON.parse(readFileSync(join(ort, "package.json"), "utf8")) as { version: string }).version, wanted);
  const utils = readFileSync(join(ort, "script", "install-utils.js"), "utf8");
  const [name, value] = ONNX_INSTALL_FIX.split(" ")[0]!.split("=");
  assert.ok(utils.includes(`process.env.${name}`), `install-utils.js reads ${name}`);
  assert.match(utils, new RegExp(`case '${value}':\\s*return false;`), `"${value}" skips the download`);
  const shipped = new Set<string>();
  for (const platform of readdirSync(join(ort, "bin", "napi-v6")))
    for (const arch of readdirSync(join(ort, "bin", "napi-v6", platform))) if (readdirSync(join(ort, "bin", "napi-v6", platform, arch)).includes("onnxruntime_binding.node")) shipped.add(`${platform}/${arch}`);
  assert.deepEqual([...shipped].sort(), [...ONNX_SHIPPED_PLATFORMS].sort());
});
