import { createRestApp } from "../src/server/rest/create-rest-app.ts";
import { Memory } from "../src/memory.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { createHashEmbedder } from "../src/providers/hash-embedder.ts";
const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder() });
const app = createRestApp({ memory, authenticate: async () => ({ keyId: null, role: "admin", namespaces: "all" }) } as never);
const r = await app.request("/openapi.json");
console.log(r.status, (await r.text()).slice(0, 500));
try { (app as any).getOpenAPI31Document({ openapi: "3.1.0", info: { title: "x", version: "1" } }); } catch (e) { console.log("ERR", e); }
