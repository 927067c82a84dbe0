import { RamemError } from "../../model/errors.js";

/**
 * When onnxruntime-node is missing where it has a binary, it was not left out
 * for the platform: its install failed or was skipped, and npm said nothing.
 * Its install script (1.30) downloads CUDA provider files on Linux x64 unless
 * ONNXRUNTIME_NODE_INSTALL (or npm config onnxruntime-node-install) is "skip";
 * without internet the download fails, and npm then removes the optional
 * package without a word. A dependency cannot set that flag for the project
 * installing it (the script reads only the install's environment, npm config
 * and arguments), so ramem says it at first use instead of running 2–8×
 * slower on tfjs with a warning nobody reads.
 */
export const ONNX_INSTALL_FIX = "ONNXRUNTIME_NODE_INSTALL=skip npm install";

/** Platforms onnxruntime-node 1.30.0 ships a binary for (its bin/napi-v6/ folders). */
export const ONNX_SHIPPED_PLATFORMS: ReadonlySet<string> = new Set(["linux/x64", "linux/arm64", "darwin/arm64", "win32/x64", "win32/arm64"]);

export interface Host {
  platform: string;
  arch: string;
  /** Linux: whether the C library is glibc (its binaries need glibc ≥ 2.28; musl cannot load them). */
  glibc: boolean;
}

function thisHost(): Host {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return { platform: process.platform, arch: process.arch, glibc: process.platform !== "linux" || typeof header?.glibcVersionRuntime === "string" };
}

/** True when `cause` (or one of its causes) is "cannot find package onnxruntime-node" — not a binary that failed to load. */
export function isOnnxRuntimeMissing(cause: unknown): boolean {
  for (let e = cause, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && typeof message === "string" && /Cannot find (package|module) 'onnxruntime-node'/.test(message)) return true;
  }
  return false;
}

/**
 * The error to stop with instead of falling back to tfjs, or undefined when
 * the fallback is right (the platform has no binary, or the package is there
 * but cannot load: the fix below would not help).
 */
export function onnxInstallFailure(cause: unknown, host: Host = thisHost()): RamemError | undefined {
  const where = `${host.platform}/${host.arch}`;
  if (!ONNX_SHIPPED_PLATFORMS.has(where) || !host.glibc || !isOnnxRuntimeMissing(cause)) return undefined;
  return new RamemError(
    "EMBEDDER_LOAD",
    `onnxruntime-node is not installed, though it ships for ${where}: npm removes this optional dependency without a word when its install script fails, ` +
      `and on Linux x64 that script downloads CUDA files ramem never uses, so it fails without internet. Fix, in your project: ${ONNX_INSTALL_FIX}`,
    {
      where: "onnxruntime-node",
      hint:
        `run \`${ONNX_INSTALL_FIX}\` (or put onnxruntime-node-install=skip in the project's .npmrc, then npm install); ` +
        "or set RAMEM_USE_LITE_RUNTIME=tfjs to embed on tfjs' WASM kernels instead (the same vectors, 5–8× slower)",
      cause,
    },
  );
}
