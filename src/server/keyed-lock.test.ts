import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { KeyedLock } from "./keyed-lock.js";

describe("KeyedLock", () => {
  it("runs work of one key one at a time, in order, and other keys alongside", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (key: string, name: string, ms: number) =>
      lock.run(key, async () => {
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        return name;
      });
    const results = await Promise.all([job("a", "a1", 20), job("a", "a2", 1), job("b", "b1", 5)]);
    assert.deepEqual(results, ["a1", "a2", "b1"]);
    assert.ok(log.indexOf("end a1") < log.indexOf("start a2"), log.join(", "));
    assert.ok(log.indexOf("start b1") < log.indexOf("end a1"), log.join(", "));
    assert.equal(lock.busyKeys, 0);
  });

  it("a failing job rejects its caller and does not block the next", async () => {
    const lock = new KeyedLock();
    const failed = lock.run("a", async () => {
      throw new Error("boom");
    });
    const next = lock.run("a", async () => "ok");
    await assert.rejects(failed, /boom/);
    assert.equal(await next, "ok");
  });
});
