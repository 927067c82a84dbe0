/**
 * A process that imports one export file and can be killed at any moment:
 * the child of import-kill.test.ts. It runs the library's importNamespace
 * (what `ramem import` runs) with no more loaded than that needs, so twenty
 * of them start in seconds. Prints "importing" just before the import and
 * "imported" after it.
 *
 *   node --import tsx src/portability/testing/import-child.ts DB FILE
 * (the test runs it bundled with esbuild, which starts faster).
 */
import { readFileSync } from "node:fs";
import { openSqliteStore } from "../../store/sqlite/sqlite-store.js";
import { importNamespace } from "../import-namespace.js";
import { TEST_DIMS, TEST_EMBEDDER } from "../../store/testing/make-unit.js";
import type { Embedder } from "../../providers/embedder.js";

const [db, file] = process.argv.slice(2);
const store = await openSqliteStore(db!);
const text = readFileSync(file!, "utf8");
// The export's vectors are used as they are: the embedder is never asked to embed.
const embedder: Embedder = { specificationVersion: "v1", id: TEST_EMBEDDER, dimensions: TEST_DIMS, maxBatchSize: 1, embed: async () => Promise.reject(new Error("import embeds nothing")) };
process.stdout.write("importing\n");
await importNamespace({ store, embedder }, text);
process.stdout.write("imported\n");
await store.close();
