// Embeds "cue + content" of every unit of a cached LoCoMo store, to measure a
// cue-aware dense channel (docs/experiments.md › RaMem targets):
//   node --import tsx research/embed-cued.ts .ramem-cache/<store>.db /tmp/cued-vectors.json
import { writeFileSync } from "node:fs";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { createUseLiteEmbedder } from "../src/providers/use-lite/use-lite-embedder.js";
import { embedAll } from "../src/anchoring/ingest-sessions.js";
const [dbPath, out] = process.argv.slice(2);
const store = await openSqliteStore(dbPath!, { readonly: true });
const embedder = await createUseLiteEmbedder();
const res: Record<string, string> = {};
const nss = ["conv-26","conv-30","conv-41","conv-42","conv-43","conv-44","conv-47","conv-48","conv-49","conv-50"];
for (const ns of nss) {
  const units = await store.listUnits(ns);
  const vs = await embedAll(embedder, units.map((u) => (u.cue ? u.cue + "\n" : "") + u.content));
  units.forEach((u, i) => (res[u.id] = Buffer.from(vs[i]!.buffer, vs[i]!.byteOffset, vs[i]!.byteLength).toString("base64")));
  console.error(ns, units.length);
}
writeFileSync(out!, JSON.stringify(res));
