/**
 * `npm pack` of this checkout, shared by the packaging tests. Packing runs
 * `prepare`, which empties and rebuilds dist/: two test files packing at once
 * (the runner runs two files at a time) would delete each other's build
 * half-way. So packs take a lock, and under one `node --test` run (the test
 * files are its children, NODE_TEST_CONTEXT set) the first pack is reused by
 * the others: the sources do not change during a run, and each pack costs
 * about a minute.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "../../cli/testing/run-cli.js";

export interface PackedRamem {
  /** The tarball, in the caller's directory. */
  tarball: string;
  /** The paths it holds, as `npm pack --json` lists them. */
  files: string[];
}

const LOCK = join(tmpdir(), "ramem-npm-pack.lock");
// A lock older than this was left by a killed run (a pack takes ~1 min on a loaded machine).
const STALE_LOCK_MS = 10 * 60_000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function withLock<T>(task: () => T): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Released between mkdir and stat: try again.
      }
      await sleep(250);
    }
  }
  try {
    return task();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function npmPack(destination: string): PackedRamem {
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", destination], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, packed!.filename), files: packed!.files.map((f) => f.path) };
}

/** Packs this checkout (or reuses this test run's pack) and copies the tarball into `destination`. */
export async function packRamem(destination: string): Promise<PackedRamem> {
  const runner = process.env.NODE_TEST_CONTEXT ? process.ppid : undefined;
  return withLock(() => {
    if (runner === undefined) return npmPack(destination);
    // Packs of runs that have ended are removed here, by the next run.
    for (const entry of readdirSync(tmpdir())) {
      const m = /^ramem-pack-run-(\d+)$/.exec(entry);
      if (m && Number(m[1]) !== runner && !pidAlive(Number(m[1]))) rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    }
    const shared = join(tmpdir(), `ramem-pack-run-${runner}`);
    const manifest = join(shared, "pack.json");
    let packed: PackedRamem;
    if (existsSync(manifest)) packed = JSON.parse(readFileSync(manifest, "utf8")) as PackedRamem;
    else {
      mkdirSync(shared, { recursive: true });
      packed = npmPack(shared);
      writeFileSync(manifest, JSON.stringify(packed));
    }
    const tarball = join(destination, packed.tarball.slice(shared.length + 1));
    copyFileSync(packed.tarball, tarball);
    return { tarball, files: packed.files };
  });
}

/**
 * The tarball unpacked as `consumer`/node_modules/ramem, with every other
 * package linked from this checkout's node_modules (which `npm ci` filled from
 * the lockfile): an install without the network, as install-clean.test.ts
 * does. `leaveOut` names packages not to link (the caller provides them, or
 * tests their absence).
 */
export function unpackWithCheckoutModules(tarball: string, consumer: string, leaveOut: ReadonlySet<string> = new Set()): void {
  const modules = join(consumer, "node_modules");
  mkdirSync(modules, { recursive: true });
  const unpacked = join(consumer, ".unpacked");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
  renameSync(join(unpacked, "package"), join(modules, "ramem"));
  rmSync(unpacked, { recursive: true, force: true });
  const source = join(ROOT, "node_modules");
  for (const entry of readdirSync(source)) {
    if (entry.startsWith(".") || entry === "ramem" || leaveOut.has(entry)) continue;
    symlinkSync(join(source, entry), join(modules, entry), "dir");
  }
}
