import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { awaitBackend, createUseLiteEmbedder } from "./use-lite-embedder.js";
import { dot } from "../vector-math.js";

test("use-lite: loads from the package without touching the network", async () => {
  const attempts: string[] = [];
  const connect = net.Socket.prototype.connect;
  const realFetch = globalThis.fetch;
  // Every TCP client (http, https, undici's fetch) goes through Socket.connect.
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    attempts.push(JSON.stringify(args[0]));
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
  globalThis.fetch = ((input: unknown) => {
    attempts.push(`fetch ${String(input)}`);
    return Promise.reject(new Error("network disabled in this test"));
  }) as typeof fetch;
  try {
    const embedder = await createUseLiteEmbedder();
    const [v] = await embedder.embed(["warm-up sentence"]);
    assert.equal(v!.length, 512);
  } finally {
    net.Socket.prototype.connect = connect;
    globalThis.fetch = realFetch;
  }
  assert.deepEqual(attempts, []);
});

test("use-lite: contract fields, one shared model", async () => {
  const [a, b] = await Promise.all([createUseLiteEmbedder(), createUseLiteEmbedder()]);
  assert.equal(a.id, "use-lite@0.2.0");
  assert.equal(a.dimensions, 512);
  assert.equal(a.maxBatchSize, 256);
  const [x] = await a.embed(["the same model"]);
  const [y] = await b.embed(["the same model"]);
  assert.deepEqual(x, y);
});

test("use-lite: similar sentences score higher than unrelated ones", async () => {
  const e = await createUseLiteEmbedder();
  const [q, para, other] = await e.embed([
    "I went to a support group for LGBTQ people yesterday.",
    "Yesterday I attended an LGBTQ support meeting.",
    "The recipe needs two cups of flour and an egg.",
  ]);
  for (const v of [q, para, other]) assert.ok(Math.abs(Math.hypot(...v!) - 1) < 1e-4);
  assert.ok(dot(q!, para!) > dot(q!, other!) + 0.2, `${dot(q!, para!)} vs ${dot(q!, other!)}`);
});

test("use-lite: batch of 100 keeps order; empty strings anywhere are safe", async () => {
  const e = await createUseLiteEmbedder();
  const texts = Array.from({ length: 100 }, (_, i) => (i % 17 === 0 ? "" : `Message ${i}: we talked about hiking trip number ${i}.`));
  texts[99] = ""; // a trailing empty row is what the raw model drops
  const vectors = await e.embed(texts);
  assert.equal(vectors.length, 100);
  for (const v of vectors) {
    assert.ok(v instanceof Float32Array && v.length === 512);
    assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4);
  }
  const [alone42] = await e.embed([texts[42]!]);
  assert.ok(dot(alone42!, vectors[42]!) > 0.9999);
  const [onlyEmpty] = await e.embed([""]);
  assert.ok(dot(onlyEmpty!, vectors[99]!) > 0.9999);
  assert.deepEqual(await e.embed([]), []);
});

test("use-lite: the model is used only once tfjs has installed its backend, not as soon as tf.ready() resolves", async () => {
  // tfjs' order of events: ready() resolves when the WASM module is
  // instantiated; the backend instance is installed by the import-time
  // setBackend a few microtasks later. A caller that only awaited ready()
  // would run the model inside that gap.
  let backendInstance: string | null = null;
  const fakeCore = {
    ready: () => Promise.resolve(),
    setBackend: async (name: string) => {
      backendInstance = name;
      return true;
    },
  };
  await awaitBackend(fakeCore);
  assert.equal(backendInstance, "wasm");
  await assert.rejects(awaitBackend({ ready: () => Promise.resolve(), setBackend: async () => false }), /could not initialise its WASM backend/);
});
