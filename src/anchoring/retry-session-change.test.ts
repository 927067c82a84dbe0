import { test } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { retrySessionChange, sessionChangeWaitMs, MAX_SESSION_CHANGE_WAIT_MS } from "./retry-session-change.js";

const changed = () => new RamemError("SESSION_CHANGED", "the session was changed by another writer meanwhile");

test("a read-modify-write is redone after SESSION_CHANGED until it goes through", async () => {
  let calls = 0;
  const out = await retrySessionChange(async () => {
    calls++;
    if (calls < 3) throw changed();
    return "written";
  });
  assert.equal(out, "written");
  assert.equal(calls, 3);
});

test("other errors are not retried; the last SESSION_CHANGED reaches the caller", async () => {
  let calls = 0;
  await assert.rejects(
    retrySessionChange(async () => {
      calls++;
      throw new RamemError("BAD_INPUT", "no");
    }),
    (e: unknown) => e instanceof RamemError && e.code === "BAD_INPUT",
  );
  assert.equal(calls, 1);
  calls = 0;
  await assert.rejects(
    retrySessionChange(async () => {
      calls++;
      throw changed();
    }, 3),
    (e: unknown) => e instanceof RamemError && e.code === "SESSION_CHANGED",
  );
  assert.equal(calls, 3);
});

test("the wait grows with each attempt and with how long the failed attempt took, up to a cap", () => {
  const half = () => 0.5;
  assert.equal(sessionChangeWaitMs(1, 0, half), 5); // at least 5 ms of window: 0.5 × 5 × 2
  assert.ok(sessionChangeWaitMs(2, 40, half) > sessionChangeWaitMs(1, 40, half));
  assert.ok(sessionChangeWaitMs(3, 100, half) > sessionChangeWaitMs(3, 10, half));
  assert.equal(sessionChangeWaitMs(12, 500, () => 1), MAX_SESSION_CHANGE_WAIT_MS);
  assert.equal(sessionChangeWaitMs(5, 100, () => 0), 0);
});
