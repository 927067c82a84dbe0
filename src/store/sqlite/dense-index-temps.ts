import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The temp files of index writes (dense-index.ts persist): an index is
 * written to `<hex ns>.<seq>.<pid>.hnsw.tmp` and its meta to
 * `<hex ns>.json.<pid>.tmp`, each renamed into place when whole. A process
 * killed mid-write (kill -9, OOM, power) leaves its temp file behind, and
 * nothing else ever renames or removes it: at 32k units that is 37.5 MB per
 * kill. The pid in the name says whose write it is, so a later open can tell
 * a dead writer's leftover from a write in progress in another process.
 */
const TEMP_NAME = /^[0-9a-f]*\.(?:\d+\.(\d+)\.hnsw|json\.(\d+))\.tmp$/;

/** Temp paths this process is writing right now (a write is synchronous, but a worker thread's open must not take them). */
const writing = new Set<string>();

/** Marks `path` as a write in progress of this process while `write` runs. */
export function writingTemp<T>(path: string, write: () => T): T {
  writing.add(path);
  try {
    return write();
  } finally {
    writing.delete(path);
  }
}

export interface StaleTemps {
  /** File names removed from the index folder. */
  files: string[];
  /** Their size in bytes, the space given back. */
  bytes: number;
}

/** The writer pid a temp file's name carries, or null for a name that is not one of ours. */
export function tempWriterPid(name: string): number | null {
  const m = TEMP_NAME.exec(name);
  const pid = Number(m?.[1] ?? m?.[2]);
  return m && Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Whether the process that named a temp file may still be writing it. This
 * process: only while the write is in `writing` (after a restart the same pid
 * comes back, e.g. pid 1 in a container, and its old file is a leftover).
 * Another: alive unless the kernel says there is no such process (ESRCH);
 * EPERM means it exists under another user. A reused pid keeps a leftover
 * until that process ends: a live writer's file is never taken.
 */
export function writerMayBeAlive(pid: number, path: string): boolean {
  if (pid === process.pid) return writing.has(path);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Removes the temp files in `dir` whose writer is gone; other files and live writers' temps stay. */
export function removeStaleTemps(dir: string | null): StaleTemps {
  const removed: StaleTemps = { files: [], bytes: 0 };
  if (!dir || !existsSync(dir)) return removed;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // An unreadable folder: the index itself will fail loudly on use; the sweep is housekeeping.
    return removed;
  }
  for (const name of names) {
    const pid = tempWriterPid(name);
    const path = join(dir, name);
    if (pid === null || writerMayBeAlive(pid, path)) continue;
    try {
      const bytes = statSync(path).size;
      rmSync(path);
      removed.files.push(name);
      removed.bytes += bytes;
    } catch {
      // Gone meanwhile (another process swept it first) or not ours to remove: nothing given back here.
    }
  }
  return removed;
}
