import { test } from "node:test";
import assert from "node:assert/strict";
import { AUTO_BUILD_MEMORY_CAP_MB, buildMemoryMb, checkDenseIndexBuildOptions, memorySettingKb } from "./dense-index.js";

test("the build memory a graph needs grows with its vectors and their dimensions, a tenth to spare", () => {
  // 100k 256-dim vectors: pgvector filled 64MB after 37,186 of them (1,805 bytes each), so 100k need ~172MB.
  const at100k = buildMemoryMb(100_000, 256);
  assert.ok(at100k >= 172 && at100k <= 200, String(at100k));
  assert.ok(Math.abs(buildMemoryMb(1_000_000, 256) - 10 * at100k) <= 10, "linear in the vectors");
  assert.ok(buildMemoryMb(1_000_000, 256) > 1024, "1M vectors do not fit in the 1GB the 1M bench built with, 580k of them did");
  assert.ok(buildMemoryMb(100_000, 512) > at100k);
  assert.equal(buildMemoryMb(0, 256), 0);
  assert.ok(buildMemoryMb(1_000_000, 512) <= AUTO_BUILD_MEMORY_CAP_MB, "the cap holds 1M vectors of 512 dimensions");
});

test("a build memory is read as PostgreSQL reads maintenance_work_mem, and one it would refuse is refused before any work", () => {
  assert.equal(memorySettingKb("3GB"), 3 * 1024 * 1024);
  assert.equal(memorySettingKb(" 512 MB "), 512 * 1024);
  assert.equal(memorySettingKb("65536"), 65536, "a bare number is kB");
  assert.equal(memorySettingKb("1.5GB"), 1.5 * 1024 * 1024);
  for (const bad of ["3gb", "lots", "", "-1MB", "3 GiB"]) assert.equal(memorySettingKb(bad), null, bad);
  for (const ok of ["1MB", "2147483647kB", "2048MB", undefined]) assert.doesNotThrow(() => checkDenseIndexBuildOptions({ maintenanceWorkMem: ok }), String(ok));
  // Below PostgreSQL's 1MB, above its 2147483647kB, not a size, or not a string at all (a JavaScript caller's number or Date).
  for (const bad of ["512kB", "2TB", "3gb", 1024, new Date(0), null]) {
    assert.throws(
      () => checkDenseIndexBuildOptions({ maintenanceWorkMem: bad as unknown as string }),
      (err: { code?: string; where?: string; hint?: string }) => err.code === "BAD_OPTION" && err.where === "maintenanceWorkMem" && /512MB/.test(err.hint ?? ""),
      String(bad),
    );
  }
});
