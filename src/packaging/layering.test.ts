// The layers of ARCHITECTURE.md › Layers, checked on the source: every
// non-test .ts/.tsx file under src/ is read, its relative imports (static
// `import … from`, `export … from`, side-effect `import "…"`, dynamic
// `import("…")` and `import("…")` types; found by TypeScript's own
// pre-processor, so comments and strings are ignored) are resolved, and each
// file and each target is given its layer:
//
//   faces   4  cli/ server/ integrations/ bench/ packaging/ (the package as a user installs it)
//   facade  3  memory.ts memory-events.ts open-memory.ts open-memory-names.ts index.ts
//   stages  2  anchoring/ (1) < induction/ (2) < retrieval/ (3) < synthesis/ (4); portability/ beside them
//   shared  1  language/ store/ providers/ formats/ util/ testing/
//   model   0  model/
//
// The rule (arrows point down only):
//   - a file imports only its own layer or a lower one;
//   - a pipeline stage imports only itself or an earlier stage, never a later
//     one and never portability/; portability/ sits beside the pipeline and
//     may import its stages (export re-embeds with anchoring's embedAll);
//   - within the other layers imports between folders are allowed: the faces
//     use each other (`ramem serve` starts the server, `ramem bench` runs the
//     harness), the facade files wire each other, and ARCHITECTURE draws no
//     arrow between the shared folders (store's test helpers use providers'
//     vector math; util, formats and providers are leaves over model);
//   - a stage imports only contracts, never a concrete store or provider
//     (ARCHITECTURE: "open-memory.ts is the one place that picks
//     implementations"): no store/sqlite/, store/postgres/, store/open-*.ts,
//     providers/use-lite/, providers/openai-compatible/,
//     providers/hash-embedder.ts. A stage's testing/ helpers are exempt: a
//     test picks a concrete store to run on;
//   - no relative import leaves src/, and every file maps to a layer (a new
//     top-level folder must be placed in ARCHITECTURE.md and here).
// Intended exceptions go in ALLOWED below, each with its reason; there are
// none today.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..");

type Layer = "faces" | "facade" | "stages" | "shared" | "model";
const RANK: Record<Layer, number> = { model: 0, shared: 1, stages: 2, facade: 3, faces: 4 };
const FOLDERS: Record<string, Layer> = {
  cli: "faces", server: "faces", integrations: "faces", bench: "faces", packaging: "faces",
  anchoring: "stages", induction: "stages", retrieval: "stages", synthesis: "stages", portability: "stages",
  language: "shared", store: "shared", providers: "shared", formats: "shared", util: "shared", testing: "shared",
  model: "model",
};
const FACADE_FILES = new Set(["memory", "memory-events", "open-memory", "open-memory-names", "index"]);
/** Pipeline order of the stages; portability/ has none (beside them). */
const STAGE_ORDER: Record<string, number> = { anchoring: 1, induction: 2, retrieval: 3, synthesis: 4 };
const CONCRETE = [/^store\/(sqlite|postgres)\//, /^store\/open-[^/]*$/, /^providers\/(use-lite|openai-compatible)\//, /^providers\/hash-embedder$/];

/** "from -> to" (paths relative to src/, without extension) of intended violations, with the reason. */
const ALLOWED: ReadonlyMap<string, string> = new Map<string, string>([]);

/** A src-relative path without its extension: "retrieval/reinstate". */
function key(path: string): string {
  return path.split(sep).join("/").replace(/\.(d\.ts|tsx?|m?js|jsx)$/, "");
}

function placeOf(path: string): { layer: Layer; folder: string } | undefined {
  const parts = path.split("/");
  if (parts.length === 1) return FACADE_FILES.has(parts[0]!) ? { layer: "facade", folder: parts[0]! } : undefined;
  const layer = FOLDERS[parts[0]!];
  return layer && { layer, folder: parts[0]! };
}

/** The reasons an import from one src-relative path (no extension) to another breaks the layering; empty when it does not. */
export function layeringErrors(from: string, to: string): string[] {
  if (to.startsWith("../") || to === "..") return [`${from} imports ${to}, outside src/`];
  const a = placeOf(from);
  const b = placeOf(to);
  if (!a) return [`${from} is in no layer (ARCHITECTURE.md › Layers)`];
  if (!b) return [`${from} imports ${to}, which is in no layer (ARCHITECTURE.md › Layers)`];
  if (a.folder === b.folder) return [];
  const errors: string[] = [];
  if (RANK[b.layer] > RANK[a.layer]) errors.push(`${from} (${a.layer}) imports ${to} (${b.layer}), a higher layer`);
  if (a.layer === "stages" && b.layer === "stages") {
    const [x, y] = [STAGE_ORDER[a.folder], STAGE_ORDER[b.folder]];
    if (x !== undefined && y === undefined) errors.push(`${from} (stage ${a.folder}) imports ${to}: a pipeline stage never imports portability/`);
    if (x !== undefined && y !== undefined && y > x) errors.push(`${from} (stage ${x}, ${a.folder}) imports ${to} (stage ${y}, ${b.folder}), a later stage`);
  }
  if (a.layer === "stages" && !from.split("/").includes("testing") && CONCRETE.some((re) => re.test(to))) {
    errors.push(`${from} (stage ${a.folder}) imports ${to}, a concrete store or provider: stages import only contracts`);
  }
  return errors;
}

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath ?? e.path, e.name))
    .sort();
}

function relativeImports(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName).filter((s) => s.startsWith("."));
}

describe("layering (ARCHITECTURE.md › Layers)", () => {
  it("no file under src/ imports a higher layer, a later stage or, from a stage, a concrete store or provider", () => {
    const files = sourceFiles();
    assert.ok(files.length > 100, `read ${files.length} source files`);
    const found: string[] = [];
    const allowedSeen = new Set<string>();
    let imports = 0;
    for (const file of files) {
      const from = key(relative(SRC, file));
      for (const spec of relativeImports(file)) {
        imports++;
        const to = key(relative(SRC, resolve(dirname(file), spec)));
        const errors = layeringErrors(from, to);
        if (errors.length === 0) continue;
        if (ALLOWED.has(`${from} -> ${to}`)) allowedSeen.add(`${from} -> ${to}`);
        else found.push(...errors);
      }
    }
    assert.ok(imports > 500, `read ${imports} relative imports`);
    assert.deepEqual(found, [], `layering broken:\n  ${found.join("\n  ")}`);
    const stale = [...ALLOWED.keys()].filter((k) => !allowedSeen.has(k));
    assert.deepEqual(stale, [], "allow-listed imports that no longer exist: remove them from ALLOWED");
  });

  it("flags what it should", () => {
    assert.deepEqual(layeringErrors("retrieval/reinstate", "language/text"), []);
    assert.deepEqual(layeringErrors("retrieval/reinstate", "anchoring/anchorer"), []);
    assert.deepEqual(layeringErrors("portability/export-namespace", "anchoring/ingest-sessions"), []);
    assert.deepEqual(layeringErrors("cli/commands/serve", "server/serve"), []);
    assert.deepEqual(layeringErrors("store/testing/make-unit", "providers/vector-math"), []);
    assert.deepEqual(layeringErrors("portability/testing/import-child", "store/sqlite/sqlite-store"), []);
    assert.equal(layeringErrors("model/errors", "util/keyed-lock").length, 1);
    assert.equal(layeringErrors("language/text", "retrieval/reinstate").length, 1);
    assert.equal(layeringErrors("memory", "cli/main").length, 1);
    assert.equal(layeringErrors("store/contract", "memory").length, 1);
    assert.equal(layeringErrors("induction/ground-occurrence", "retrieval/stemmed-terms").length, 1);
    assert.equal(layeringErrors("anchoring/anchorer", "portability/export-format").length, 1);
    assert.equal(layeringErrors("retrieval/content-recall", "store/sqlite/sqlite-store").length, 1);
    assert.equal(layeringErrors("synthesis/answer", "providers/openai-compatible/chat").length, 1);
    assert.equal(layeringErrors("anchoring/x", "store/open-store").length, 1);
    assert.equal(layeringErrors("newfolder/x", "model/errors").length, 1);
    assert.equal(layeringErrors("util/x", "../package.json").length, 1);
  });
});
