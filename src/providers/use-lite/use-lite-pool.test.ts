import { test } from "node:test";
import assert from "node:assert/strict";
import { createUseLiteEmbedder } from "./use-lite-embedder.js";
import { createUseLitePool } from "./use-lite-pool.js";
import { loaderArgs } from "../../util/thread-pool.js";

const TEXTS = [
  "Caroline went to a LGBTQ support group yesterday (7 May 2023).",
  "",
  "Melanie: I painted a lake sunrise last year.",
  "What did you think of the book?",
  "We adopted a cat named Oliver in March.",
  "ok",
  "The recipe needs two cups of flour and an egg.",
  "I ran my second half marathon in Sentosa, it was so hot!",
  "Thanks!",
  "Joanna is writing a screenplay about a road trip across the desert.",
  "  ",
  "Nate won a video game tournament and bought a turtle tank with the prize money.",
];

test("use-lite pool: the threads compute the vectors the in-process model computes, in the input's order", async () => {
  const single = await createUseLiteEmbedder();
  const pool = createUseLitePool({ size: 2 });
  try {
    // 12 texts = two chunks, one per thread, run at the same time.
    const [expected, got] = await Promise.all([single.embed(TEXTS), pool.embed(TEXTS)]);
    assert.equal(got.length, TEXTS.length);
    for (let i = 0; i < TEXTS.length; i++) {
      assert.ok(got[i] instanceof Float32Array && got[i]!.length === 512, `vector ${i}`);
      let worst = 0;
      for (let d = 0; d < 512; d++) worst = Math.max(worst, Math.abs(got[i]![d]! - expected[i]![d]!));
      assert.ok(worst < 1e-6, `text ${i} differs by ${worst}`);
    }
    // A vector of one text must not depend on which thread or call embedded it.
    const [again] = await pool.embed([TEXTS[9]!]);
    const [alone] = await single.embed([TEXTS[9]!]);
    for (let d = 0; d < 512; d++) assert.ok(Math.abs(again![d]! - alone![d]!) < 1e-6);
    assert.equal(pool.id, single.id);
    assert.equal(pool.dimensions, single.dimensions);
  } finally {
    await pool.close();
  }
});

test("use-lite pool: many calls at once all come back whole; a closed pool refuses", async () => {
  const pool = createUseLitePool({ size: 2 });
  const calls = Array.from({ length: 6 }, (_, c) => Array.from({ length: 5 + c * 3 }, (_, i) => `call ${c} text ${i} about hiking`));
  const results = await Promise.all(calls.map((texts) => pool.embed(texts)));
  results.forEach((vectors, c) => assert.equal(vectors.length, calls[c]!.length));
  // Two calls with the same text at different positions give the same vector.
  const [a] = await pool.embed(["call 0 text 0 about hiking"]);
  for (let d = 0; d < 512; d++) assert.ok(Math.abs(a![d]! - results[0]![0]![d]!) < 1e-6);
  assert.deepEqual(await pool.embed([]), []);
  await pool.close();
  await assert.rejects(pool.embed(["after close"]), { code: "EMBEDDER_POOL" });
});

test("use-lite pool: threads get the module loaders of the main thread and nothing else", () => {
  assert.deepEqual(loaderArgs(["--import", "tsx", "--test", "--cpu-prof", "--test-concurrency=2"]), ["--import", "tsx"]);
  assert.deepEqual(loaderArgs(["--import=tsx", "--require", "x.cjs", "--max-old-space-size=4096"]), ["--import=tsx", "--require", "x.cjs"]);
  assert.deepEqual(loaderArgs([]), []);
});
