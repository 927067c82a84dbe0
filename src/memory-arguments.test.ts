import { test } from "node:test";
import assert from "node:assert/strict";
import { Memory } from "./memory.js";
import { openMemory } from "./open-memory.js";
import { RamemError } from "./model/errors.js";
import { openSqliteStore } from "./store/sqlite/sqlite-store.js";
import { createHashEmbedder } from "./providers/hash-embedder.js";

/**
 * Every public method of Memory (and openMemory) called from plain
 * JavaScript with a value that is no string where a string is typed:
 * undefined, null, a Date, a number, an object. Each call must fail as a
 * RamemError naming the argument (`where`), and store nothing.
 */
const BAD: ReadonlyArray<[string, unknown]> = [
  ["undefined", undefined],
  ["null", null],
  ["a Date", new Date("2023-05-01T00:00:00Z")],
  ["a number", 42],
  ["an object", { id: "u_1" }],
];

type Call = (m: Memory, id: string, v: any) => Promise<unknown>;

/** [method and argument, the call with the bad value in that argument, whether undefined is allowed there]. */
const CALLS: ReadonlyArray<[string, Call, "required" | "optional"]> = [
  ["add › options.namespace", (m, _id, v) => m.add([{ role: "user", content: "hi" }], { namespace: v }), "optional"],
  ["add › options.sessionId", (m, _id, v) => m.add([{ role: "user", content: "hi" }], { sessionId: v }), "optional"],
  ["add › options.actor", (m, _id, v) => m.add([{ role: "user", content: "hi" }], { actor: v }), "optional"],
  ["get › unitId", (m, _id, v) => m.get(v), "required"],
  ["get › options.namespace", (m, id, v) => m.get(id, { namespace: v }), "optional"],
  ["getAll › options.namespace", (m, _id, v) => m.getAll({ namespace: v }), "optional"],
  ["getAll › options.cursor", (m, _id, v) => m.getAll({ cursor: v }), "optional"],
  ["update › unitId", (m, _id, v) => m.update(v, { text: "new words" }), "required"],
  ["update › change.text", (m, id, v) => m.update(id, { text: v }), "required"],
  ["update › options.namespace", (m, id, v) => m.update(id, { text: "new words" }, { namespace: v }), "optional"],
  ["update › options.actor", (m, id, v) => m.update(id, { text: "new words" }, { actor: v }), "optional"],
  ["supersede › oldId", (m, id, v) => m.supersede(v, id), "required"],
  ["supersede › newId", (m, id, v) => m.supersede(id, v), "required"],
  ["unsupersede › unitId", (m, _id, v) => m.unsupersede(v), "required"],
  ["validity › unitId", (m, _id, v) => m.validity(v), "required"],
  ["history › unitId", (m, _id, v) => m.history(v), "required"],
  ["history › options.namespace", (m, id, v) => m.history(id, { namespace: v }), "optional"],
  ["delete › unitId", (m, _id, v) => m.delete(v), "required"],
  ["forgetUnit › unitId", (m, _id, v) => m.forgetUnit(v), "required"],
  ["forgetUnit › options.namespace", (m, id, v) => m.forgetUnit(id, { namespace: v }), "optional"],
  ["deleteSession › sessionId", (m, _id, v) => m.deleteSession(v), "required"],
  ["forgetSession › sessionId", (m, _id, v) => m.forgetSession(v), "required"],
  ["forgetSession › options.namespace", (m, _id, v) => m.forgetSession("s1", { namespace: v }), "optional"],
  ["deleteAll › options.namespace", (m, _id, v) => m.deleteAll({ namespace: v }), "required"],
  ["reset › namespace", (m, _id, v) => m.reset(v), "required"],
  ["forgetNamespace › namespace", (m, _id, v) => m.forgetNamespace(v), "required"],
  ["reanchor › namespace", (m, _id, v) => m.reanchor(v), "required"],
  ["appendTurns › request.sessionId", (m, _id, v) => m.appendTurns({ sessionId: v, turns: [{ speaker: "Ann", text: "hello" }] }), "required"],
  ["appendTurns › request.namespace", (m, _id, v) => m.appendTurns({ namespace: v, sessionId: "s9", turns: [{ speaker: "Ann", text: "hello" }] }), "optional"],
  ["ingest › sessions", (m, _id, v) => m.ingest(v), "required"],
  ["exportNamespace › namespace", (m, _id, v) => m.exportNamespace(v), "optional"],
  ["importNamespace › text", (m, _id, v) => m.importNamespace(v), "required"],
  ["importNamespace › options.namespace", (m, _id, v) => m.importNamespace("{}", { namespace: v }), "optional"],
  ["recall › query", (m, _id, v) => m.recall(v), "required"],
  ["recall › options.namespace", (m, _id, v) => m.recall("necklace", { namespace: v }), "optional"],
  ["recall › options.questionDate", (m, _id, v) => m.recall("necklace", { questionDate: v }), "optional"],
  ["ask › question", (m, _id, v) => m.ask(v), "required"],
  ["ask › options.namespace", (m, _id, v) => m.ask("what necklace?", { namespace: v }), "optional"],
  ["list › filter.namespace", (m, _id, v) => m.list({ namespace: v }), "optional"],
  ["list › filter.sessionId", (m, _id, v) => m.list({ sessionId: v }), "optional"],
  ["stats › namespace", (m, _id, v) => m.stats(v), "optional"],
];

async function seeded(): Promise<{ memory: Memory; id: string; snapshot: () => Promise<string> }> {
  const memory = new Memory({ store: await openSqliteStore(":memory:"), embedder: createHashEmbedder(), defaultNamespace: "library" });
  const added = await memory.add([{ role: "user", content: "My grandmother gave me a silver necklace." }], { sessionId: "s1" });
  const snapshot = async () => JSON.stringify([await memory.exportNamespace("library", { now: new Date(0) }), await memory.store.listNamespaces(), await memory.stats()]);
  return { memory, id: added.unitIds[0]!, snapshot };
}

test("every public method refuses a non-string where a string is typed: a RamemError naming the argument, nothing stored", async () => {
  const { memory, id, snapshot } = await seeded();
  try {
    const before = await snapshot();
    const failures: string[] = [];
    for (const [name, call, presence] of CALLS) {
      for (const [what, value] of BAD) {
        if (value === undefined && presence === "optional") continue;
        let pending: Promise<unknown>;
        try {
          pending = call(memory, id, value);
        } catch (err) {
          failures.push(`${name} = ${what}: threw synchronously instead of rejecting: ${String(err)}`);
          continue;
        }
        try {
          await pending;
          failures.push(`${name} = ${what}: no error`);
        } catch (err) {
          if (!(err instanceof RamemError)) failures.push(`${name} = ${what}: ${String(err)}`);
          else if (!err.where) failures.push(`${name} = ${what}: ${err.code} without where (${err.message})`);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(await snapshot(), before, "no refused call stored anything");
  } finally {
    await memory.close();
  }
});

test("a whole-namespace delete without its namespace says the default is not used, and deletes nothing", async () => {
  const { memory, snapshot } = await seeded();
  try {
    const before = await snapshot();
    for (const call of [() => memory.reset(undefined as never), () => memory.deleteAll({} as never), () => memory.forgetNamespace(undefined as never)])
      await assert.rejects(call(), (e: unknown) => e instanceof RamemError && e.code === "BAD_NAMESPACE" && e.where === "namespace" && /default namespace is not used/.test(e.message) && /reset\("user-42"\)/.test(e.hint ?? ""));
    assert.equal(await snapshot(), before);
  } finally {
    await memory.close();
  }
});

test("update(undefined, …) names unitId", async () => {
  const { memory } = await seeded();
  try {
    await assert.rejects(memory.update(undefined as never, { text: "x" }), (e: unknown) => e instanceof RamemError && e.code === "BAD_ARGUMENT" && e.where === "unitId");
    await assert.rejects(memory.recall("necklace", null as never), (e: unknown) => e instanceof RamemError && e.where === "options");
  } finally {
    await memory.close();
  }
});

test("session ids of dots only are refused on every write, and nothing is stored", async () => {
  const { memory, snapshot } = await seeded();
  try {
    const before = await snapshot();
    for (const sid of [".", "..", "..."]) {
      await assert.rejects(memory.add([{ role: "user", content: "hi" }], { sessionId: sid }), (e: unknown) => e instanceof RamemError && e.code === "BAD_SESSION_ID" && e.where === "sessionId" && /only dots/.test(e.message));
      await assert.rejects(memory.appendTurns({ sessionId: sid, turns: [{ speaker: "Ann", text: "hello" }] }), (e: unknown) => e instanceof RamemError && e.where === "sessionId");
      const session = { session: { id: sid, namespace: "library", startTime: "2023-05-01T00:00:00Z", endTime: "2023-05-01T00:00:00Z", participants: [] }, turns: [{ id: "t1", speaker: "Ann", text: "hello" }] };
      await assert.rejects(memory.ingest([session]), (e: unknown) => e instanceof RamemError && /only dots/.test(e.message) && /session › id$/.test(e.where ?? ""));
    }
    assert.equal(await snapshot(), before);
    // Dots inside an id are fine.
    assert.equal((await memory.add([{ role: "user", content: "hi" }], { sessionId: "v1.2" })).sessionId, "v1.2");
  } finally {
    await memory.close();
  }
});

test("openMemory refuses options of the wrong type, naming the option", async () => {
  for (const [option, value] of [["db", 42], ["defaultNamespace", new Date()], ["embedder", null], ["embedder", 7], ["anchorer", null], ["env", "x"]] as const) {
    await assert.rejects(openMemory({ db: ":memory:", embedder: "hash", [option]: value } as never), (e: unknown) => e instanceof RamemError && e.where === option, `${option} = ${String(value)}`);
  }
  await assert.rejects(openMemory(null as never), (e: unknown) => e instanceof RamemError && e.where === "options");
});
