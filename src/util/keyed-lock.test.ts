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

  it("runAll waits for every key's earlier work and blocks each key until it is done", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const a = lock.run("a", async () => (await sleep(10), log.push("a done")));
    const b = lock.run("b", async () => (await sleep(5), log.push("b done")));
    const both = lock.runAll(["b", "a", "b"], async () => log.push("both"));
    const later = lock.run("a", async () => log.push("a later"));
    await Promise.all([a, b, both, later]);
    assert.deepEqual(log, ["b done", "a done", "both", "a later"]);
    assert.equal(lock.busyKeys, 0);
  });
});
