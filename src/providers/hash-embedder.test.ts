import { test } from "node:test";
import assert from "node:assert/strict";
import { createHashEmbedder, hashEmbed, tokenizeForHash } from "./hash-embedder.js";
import { dot } from "./vector-math.js";
import { RamemError } from "../model/errors.js";

test("id, size, unit length, determinism", async () => {
  const e = createHashEmbedder();
  assert.equal(e.id, "hash-bow@1:256");
  assert.equal(e.dimensions, 256);
  assert.equal(createHashEmbedder(64).id, "hash-bow@1:64");
  const [a, b] = await e.embed(["Caroline went to the support group.", "Caroline went to the support group."]);
  assert.ok(a instanceof Float32Array && a.length === 256);
  assert.deepEqual(a, b);
  assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-6);
  // Pinned: the id promises that "hash-bow@1" vectors never change, since stores keep them.
  assert.deepEqual(Array.from(hashEmbed("hello world", 8)).map((x) => Math.round(x * 1e4) / 1e4), [0, 0.6667, 0, 0, -0.3333, 0, -0.6667, 0]);
  assert.deepEqual(hashEmbed("Hello, WORLD!", 8), hashEmbed("hello world", 8));
});

test("texts sharing words are closer than unrelated ones", async () => {
  const e = createHashEmbedder();
  const [q, near, far] = await e.embed([
    "Melanie painted a sunrise over the lake",
    "the lake sunrise Melanie painted last week",
    "Caroline researched adoption agencies",
  ]);
  assert.ok(dot(q!, near!) > 0.5);
  assert.ok(dot(q!, near!) > dot(q!, far!) + 0.3);
});

test("word order adds a little via bigrams", () => {
  const a = hashEmbed("new york city", 1024);
  const same = hashEmbed("new york city trip", 1024);
  const shuffled = hashEmbed("city york new trip", 1024);
  assert.ok(dot(a, same) > dot(a, shuffled));
});

test("empty and punctuation-only texts still give one shared unit vector", async () => {
  const e = createHashEmbedder(32);
  const [x, y, z] = await e.embed(["", "  ?! ", "word"]);
  assert.ok(Math.abs(Math.hypot(...x!) - 1) < 1e-6);
  assert.deepEqual(x, y);
  assert.ok(Math.abs(dot(x!, z!)) < 1);
});

test("tokenizer: lowercase, unicode letters, inner apostrophes", () => {
  assert.deepEqual(tokenizeForHash("Don’t STOP: Zoë's café, 2023!"), ["don't", "stop", "zoë's", "café", "2023"]);
});

test("rejects nonsense sizes, naming the argument", () => {
  for (const size of [0, 3.5, "x"]) {
    assert.throws(() => createHashEmbedder(size as number), (e: unknown) => e instanceof RamemError && e.code === "BAD_ARGUMENT" && e.where === "dimensions", String(size));
  }
});
