import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { createUseLiteEmbedder, loadWithFallback, useLiteRuntimeOf } from "./use-lite-embedder.js";
import { createEmbedder } from "../../open-memory.js";
import { awaitBackend } from "./load-tfjs-use-lite.js";
import { dot } from "../vector-math.js";

test("use-lite: loads from the package without touching the network, on either runtime", async () => {
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
    for (const runtime of ["onnx", "tfjs"] as const) {
      const embedder = await createUseLiteEmbedder({ runtime });
      const [v] = await embedder.embed(["warm-up sentence"]);
      assert.equal(v!.length, 512);
    }
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

const VARIED = [
  "",
  "ok",
  "Caroline went to a LGBTQ support group yesterday (7 May 2023).",
  "Melanie: I painted a lake sunrise last year, and then we went camping by the river with the kids.",
  "emoji 😀😀 ✨ and unknown symbols ☃ \u{1F9EA}",
  "naïve café in São Paulo",
  // Past 128 tokens: both runtimes embed the first 128 only.
  Array.from({ length: 60 }, (_, i) => `Step ${i}: stir the sauce.`).join(" "),
  "What did you think of the book?",
  "  ",
  "Nate won a video game tournament and bought a turtle tank with the prize money.",
];

test("use-lite: the ONNX runtime computes tfjs' vectors (the rebuilt graph and tokenizer match the package's)", async () => {
  const [onnx, tfjs] = await Promise.all([createUseLiteEmbedder({ runtime: "onnx" }), createUseLiteEmbedder({ runtime: "tfjs" })]);
  assert.equal(onnx.runtime, "onnx");
  assert.equal(tfjs.runtime, "tfjs");
  assert.equal(onnx.id, tfjs.id);
  const [a, b] = await Promise.all([onnx.embed(VARIED), tfjs.embed(VARIED)]);
  for (let i = 0; i < VARIED.length; i++) {
    let worst = 0;
    for (let d = 0; d < 512; d++) worst = Math.max(worst, Math.abs(a[i]![d]! - b[i]![d]!));
    assert.ok(worst < 1e-5, `text ${i} differs by ${worst}`);
  }
  // Texts that differ only past the 128th token share a vector.
  const long = VARIED[6]!;
  const [x, y] = await onnx.embed([long, `${long} And then something else entirely about the weather.`]);
  assert.ok(dot(x!, y!) > 0.99999);
});

test("use-lite: RAMEM_USE_LITE_RUNTIME names the runtime; unset, the default; a wrong name says where and what to use", async () => {
  assert.equal(useLiteRuntimeOf(""), undefined);
  assert.equal(useLiteRuntimeOf("tfjs"), "tfjs");
  assert.equal(useLiteRuntimeOf("onnx"), "onnx");
  assert.throws(() => useLiteRuntimeOf("cuda"), (e: { code?: string; where?: string; hint?: string }) => e.code === "BAD_EMBEDDER" && e.where === "RAMEM_USE_LITE_RUNTIME" && /onnx, tfjs/.test(e.hint ?? ""));
  // The environment handed to createEmbedder decides, not this process's.
  const viaEnv = (await createEmbedder("use-lite", { RAMEM_USE_LITE_RUNTIME: "tfjs" })) as Awaited<ReturnType<typeof createUseLiteEmbedder>>;
  assert.equal(viaEnv.runtime, "tfjs");
  const byDefault = (await createEmbedder("use-lite", {})) as Awaited<ReturnType<typeof createUseLiteEmbedder>>;
  assert.equal(byDefault.runtime, "onnx", "onnxruntime-node loads on this platform, so the default is onnx");
  await assert.rejects(createEmbedder("use-lite", { RAMEM_USE_LITE_RUNTIME: "gpu" }), { code: "BAD_EMBEDDER" });
});

test("use-lite: where onnxruntime cannot load, the default falls back to tfjs and says why", async () => {
  const said: unknown[] = [];
  const tfjs = { runtime: "tfjs" as const, embed: async () => [] };
  const runner = await loadWithFallback(
    async () => {
      throw new Error("onnxruntime-node has no binary for darwin/x64");
    },
    async () => tfjs,
    (cause) => said.push(cause),
  );
  assert.equal(runner, tfjs);
  assert.match(String((said[0] as Error).message), /no binary for darwin\/x64/);
  // A runtime that loads is used as it is, and nothing is said.
  const onnx = { runtime: "onnx" as const, embed: async () => [] };
  assert.equal(await loadWithFallback(async () => onnx, async () => tfjs, (cause) => said.push(cause)), onnx);
  assert.equal(said.length, 1);
});
