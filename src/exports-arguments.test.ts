import { test } from "node:test";
import assert from "node:assert/strict";
import {
  answerFromEvidence,
  appendTurns,
  askMemory,
  contentRecall,
  createHashEmbedder,
  createLlmAnchorer,
  createOpenAICompatibleEmbedder,
  createOpenAICompatibleLanguageModel,
  createRuleAnchorer,
  DEFAULT_SPEAKER_NAMES,
  escapeStoredText,
  exportNamespace,
  extractEntities,
  finalScores,
  forgetUnit,
  groundTimeExpression,
  groundTimeExpressions,
  importNamespace,
  induceFrame,
  ingestSessions,
  isPostgresUrl,
  isSqliteMemoryStore,
  KeyedLock,
  messagesToTurns,
  openMemory,
  openPostgresStore,
  openSqliteStore,
  openStore,
  providerConfigFromEnv,
  RamemError,
  readConversationFile,
  reinstate,
  renderEvidence,
  runRecall,
  sessionFromTurns,
  updateUnit,
  type LanguageModel,
  type Memory,
} from "./index.js";

/**
 * The building blocks src/index.ts exports beside Memory, called from plain
 * JavaScript with undefined or a Date where a string, object or list is
 * typed: each must fail as a RamemError BAD_ARGUMENT naming the argument
 * (`where`) — synchronously for a synchronous function, as a rejection for
 * one that returns a promise — and store nothing. Memory's own methods are
 * memory-arguments.test.ts's.
 */
const BAD: ReadonlyArray<[string, unknown]> = [
  ["undefined", undefined],
  ["a Date", new Date("2023-05-01T00:00:00Z")],
];

const MODEL: LanguageModel = {
  specificationVersion: "v1",
  id: "never-called",
  complete: () => Promise.reject(new Error("the model must not be called")),
};
const PACK = renderEvidence([]);
const CTX = { history: null, knownPeople: [] };
const REINSTATE = { k: 3, query: "necklace", contextRanking: true, sessionContext: true };
const TURNS = [{ speaker: "Ann", text: "hello" }];
const MESSAGES = [{ role: "user" as const, content: "hi" }];
const NOW = new Date("2023-05-01T00:00:00Z");
const work = () => Promise.resolve(1);

type Call = (m: Memory, v: any) => unknown;

/**
 * ["<export> › <where>", the call with the bad value there, how it fails,
 * whether undefined is allowed there ("date": a Date is required there, so
 * its ISO string stands in for the Date)].
 */
const CALLS: ReadonlyArray<[string, Call, "throws" | "rejects", "required" | "optional" | "date"]> = [
  ["renderEvidence › units", (_m, v) => renderEvidence(v), "throws", "required"],
  ["renderEvidence › units[0]", (_m, v) => renderEvidence([v]), "throws", "required"],
  ["renderEvidence › options.maxTokens", (_m, v) => renderEvidence([], { maxTokens: v }), "throws", "optional"],
  ["induceFrame › query", (_m, v) => induceFrame(v, CTX), "rejects", "required"],
  ["induceFrame › ctx", (_m, v) => induceFrame("when?", v), "rejects", "required"],
  ["induceFrame › ctx.knownPeople", (_m, v) => induceFrame("when?", { history: null, knownPeople: v }), "rejects", "required"],
  ["induceFrame › ctx.questionDate", (_m, v) => induceFrame("when?", { ...CTX, questionDate: v }), "rejects", "optional"],
  ["escapeStoredText › text", (_m, v) => escapeStoredText(v), "throws", "required"],
  ["extractEntities › text", (_m, v) => extractEntities(v), "throws", "required"],
  ["groundTimeExpressions › text", (_m, v) => groundTimeExpressions(v, "2023-05-01T00:00:00Z"), "throws", "required"],
  ["groundTimeExpressions › reference", (_m, v) => groundTimeExpressions("yesterday", v), "throws", "required"],
  ["groundTimeExpression › expression", (_m, v) => groundTimeExpression(v, "2023-05-01T00:00:00Z"), "throws", "required"],
  ["groundTimeExpression › reference", (_m, v) => groundTimeExpression("yesterday", v), "throws", "required"],
  ["sessionFromTurns › request", (_m, v) => sessionFromTurns(v, { now: NOW }), "throws", "required"],
  ["sessionFromTurns › request.sessionId", (_m, v) => sessionFromTurns({ namespace: "library", sessionId: v, turns: TURNS }, { now: NOW }), "throws", "required"],
  ["sessionFromTurns › request.turns", (_m, v) => sessionFromTurns({ namespace: "library", sessionId: "s9", turns: v }, { now: NOW }), "throws", "required"],
  ["sessionFromTurns › options", (_m, v) => sessionFromTurns({ namespace: "library", sessionId: "s9", turns: TURNS }, v), "throws", "required"],
  ["sessionFromTurns › options.now", (_m, v) => sessionFromTurns({ namespace: "library", sessionId: "s9", turns: TURNS }, { now: v }), "throws", "date"],
  ["appendTurns › deps", (_m, v) => appendTurns(v, { namespace: "library", sessionId: "s9", turns: TURNS }), "rejects", "required"],
  ["appendTurns › request", (m, v) => appendTurns(m, v), "rejects", "required"],
  ["appendTurns › request.namespace", (m, v) => appendTurns(m, { namespace: v, sessionId: "s9", turns: TURNS }), "rejects", "required"],
  ["appendTurns › request.sessionId", (m, v) => appendTurns(m, { namespace: "library", sessionId: v, turns: TURNS }), "rejects", "required"],
  ["appendTurns › request.turns", (m, v) => appendTurns(m, { namespace: "library", sessionId: "s9", turns: v }), "rejects", "required"],
  ["ingestSessions › deps", (_m, v) => ingestSessions(v, []), "rejects", "required"],
  ["ingestSessions › input", (m, v) => ingestSessions(m, v), "rejects", "required"],
  ["updateUnit › namespace", (m, v) => updateUnit(m, v, "u_1", "new words"), "rejects", "required"],
  ["updateUnit › unitId", (m, v) => updateUnit(m, "library", v, "new words"), "rejects", "required"],
  ["updateUnit › text", (m, v) => updateUnit(m, "library", "u_1", v), "rejects", "required"],
  ["forgetUnit › deps", (_m, v) => forgetUnit(v, "library", "u_1"), "rejects", "required"],
  ["forgetUnit › namespace", (m, v) => forgetUnit(m, v, "u_1"), "rejects", "required"],
  ["forgetUnit › unitId", (m, v) => forgetUnit(m, "library", v), "rejects", "required"],
  ["exportNamespace › memory", (_m, v) => exportNamespace(v, "library"), "rejects", "required"],
  ["exportNamespace › namespace", (m, v) => exportNamespace(m, v), "rejects", "required"],
  ["importNamespace › text", (m, v) => importNamespace(m, v), "rejects", "required"],
  ["importNamespace › options.namespace", (m, v) => importNamespace(m, "{}", { namespace: v }), "rejects", "optional"],
  ["runRecall › deps", (_m, v) => runRecall(v, { namespace: "library", query: "necklace", k: 3 }), "rejects", "required"],
  ["runRecall › request", (m, v) => runRecall(m, v), "rejects", "required"],
  ["runRecall › request.namespace", (m, v) => runRecall(m, { namespace: v, query: "necklace", k: 3 }), "rejects", "required"],
  ["runRecall › request.query", (m, v) => runRecall(m, { namespace: "library", query: v, k: 3 }), "rejects", "required"],
  ["runRecall › request.k", (m, v) => runRecall(m, { namespace: "library", query: "necklace", k: v }), "rejects", "required"],
  ["runRecall › request.questionDate", (m, v) => runRecall(m, { namespace: "library", query: "necklace", k: 3, questionDate: v }), "rejects", "optional"],
  ["contentRecall › deps", (_m, v) => contentRecall(v, "necklace", { namespace: "library", pool: 5 }), "rejects", "required"],
  ["contentRecall › query", (m, v) => contentRecall(m, v, { namespace: "library", pool: 5 }), "rejects", "required"],
  ["contentRecall › options", (m, v) => contentRecall(m, "necklace", v), "rejects", "required"],
  ["contentRecall › options.namespace", (m, v) => contentRecall(m, "necklace", { namespace: v, pool: 5 }), "rejects", "required"],
  ["contentRecall › options.pool", (m, v) => contentRecall(m, "necklace", { namespace: "library", pool: v }), "rejects", "required"],
  ["reinstate › contentRanking", (_m, v) => reinstate(v, null, () => undefined, REINSTATE), "throws", "required"],
  ["reinstate › unitOf", (_m, v) => reinstate([], null, v, REINSTATE), "throws", "required"],
  ["reinstate › options", (_m, v) => reinstate([], null, () => undefined, v), "throws", "required"],
  ["reinstate › options.k", (_m, v) => reinstate([], null, () => undefined, { ...REINSTATE, k: v }), "throws", "required"],
  ["reinstate › options.query", (_m, v) => reinstate([], null, () => undefined, { ...REINSTATE, query: v }), "throws", "required"],
  ["reinstate › options.contextRanking", (_m, v) => reinstate([], null, () => undefined, { ...REINSTATE, contextRanking: v }), "throws", "required"],
  ["finalScores › ranked", (_m, v) => finalScores(v), "throws", "required"],
  ["finalScores › options", (_m, v) => finalScores([], v), "throws", "optional"],
  ["answerFromEvidence › model", (_m, v) => answerFromEvidence(v, "what necklace?", PACK), "rejects", "required"],
  ["answerFromEvidence › question", (_m, v) => answerFromEvidence(MODEL, v, PACK), "rejects", "required"],
  ["answerFromEvidence › pack", (_m, v) => answerFromEvidence(MODEL, "what necklace?", v), "rejects", "required"],
  ["askMemory › deps", (_m, v) => askMemory(v, "what necklace?", { namespace: "library" }), "rejects", "required"],
  ["askMemory › deps.recall", (_m, v) => askMemory({ recall: v }, "what necklace?", { namespace: "library" }), "rejects", "required"],
  ["askMemory › question", (m, v) => askMemory(m, v, { namespace: "library" }), "rejects", "required"],
  ["askMemory › options", (m, v) => askMemory(m, "what necklace?", v), "rejects", "required"],
  ["askMemory › options.namespace", (m, v) => askMemory(m, "what necklace?", { namespace: v }), "rejects", "required"],
  ["askMemory › options.k", (m, v) => askMemory(m, "what necklace?", { namespace: "library", k: v }), "rejects", "optional"],
  ["createLlmAnchorer › options", (_m, v) => createLlmAnchorer(v), "throws", "required"],
  ["createLlmAnchorer › options.model", (_m, v) => createLlmAnchorer({ model: v }), "throws", "required"],
  ["createRuleAnchorer › options", (_m, v) => createRuleAnchorer(v), "throws", "optional"],
  ["createHashEmbedder › dimensions", (_m, v) => createHashEmbedder(v), "throws", "optional"],
  ["createOpenAICompatibleEmbedder › options", (_m, v) => createOpenAICompatibleEmbedder(v), "rejects", "required"],
  ["createOpenAICompatibleEmbedder › options.baseURL", (_m, v) => createOpenAICompatibleEmbedder({ baseURL: v, model: "m" }), "rejects", "optional"],
  ["createOpenAICompatibleLanguageModel › options", (_m, v) => createOpenAICompatibleLanguageModel(v), "throws", "required"],
  ["createOpenAICompatibleLanguageModel › options.model", (_m, v) => createOpenAICompatibleLanguageModel({ baseURL: "http://127.0.0.1:9", model: v }), "throws", "optional"],
  ["providerConfigFromEnv › env", (_m, v) => providerConfigFromEnv(v), "throws", "optional"],
  ["openSqliteStore › path", (_m, v) => openSqliteStore(v), "rejects", "required"],
  ["openSqliteStore › opts", (_m, v) => openSqliteStore(":memory:", v), "rejects", "optional"],
  ["openPostgresStore › url", (_m, v) => openPostgresStore(v), "rejects", "required"],
  ["openStore › location", (_m, v) => openStore(v), "rejects", "required"],
  ["isPostgresUrl › location", (_m, v) => isPostgresUrl(v), "throws", "required"],
  ["isSqliteMemoryStore › store", (_m, v) => isSqliteMemoryStore(v), "throws", "required"],
  ["readConversationFile › path", (_m, v) => readConversationFile(v), "rejects", "required"],
  ["messagesToTurns › names", (_m, v) => messagesToTurns(MESSAGES, v, NOW), "throws", "required"],
  ["messagesToTurns › now", (_m, v) => messagesToTurns(MESSAGES, DEFAULT_SPEAKER_NAMES, v), "throws", "date"],
  ["KeyedLock.run › key", (_m, v) => new KeyedLock().run(v, work), "rejects", "required"],
  ["KeyedLock.run › work", (_m, v) => new KeyedLock().run("library", v), "rejects", "required"],
];

/** Why the call did not fail as it should, or null. */
async function misfit(name: string, call: () => unknown, how: "throws" | "rejects"): Promise<string | null> {
  const where = name.split(" › ")[1]!;
  let outcome: unknown;
  try {
    outcome = call();
  } catch (err) {
    if (how === "rejects") return `threw synchronously instead of rejecting: ${String(err)}`;
    return err instanceof RamemError && err.code === "BAD_ARGUMENT" && err.where === where ? null : `${String(err)} (where ${(err as RamemError).where})`;
  }
  if (how === "throws") return `no synchronous error (returned ${outcome instanceof Promise ? "a promise" : typeof outcome})`;
  try {
    await outcome;
    return "no error";
  } catch (err) {
    return err instanceof RamemError && err.code === "BAD_ARGUMENT" && err.where === where ? null : `${String(err)} (where ${(err as RamemError).where})`;
  }
}

test("every exported building block refuses undefined or a Date where it takes a string, object or list: BAD_ARGUMENT naming it, nothing stored", async () => {
  const memory = await openMemory({ db: ":memory:", embedder: "hash", defaultNamespace: "library" });
  try {
    await memory.add([{ role: "user", content: "My grandmother gave me a silver necklace." }], { sessionId: "s1" });
    const snapshot = async () => JSON.stringify([await memory.store.listNamespaces(), await memory.stats(), await memory.exportNamespace("library", { now: new Date(0) })]);
    const before = await snapshot();
    const failures: string[] = [];
    for (const [name, call, how, presence] of CALLS) {
      for (const [what, value] of BAD) {
        if (value === undefined && presence === "optional") continue;
        const [shown, bad] = presence === "date" && value instanceof Date ? ["an ISO string", value.toISOString()] : [what, value];
        const why = await misfit(name, () => call(memory, bad), how);
        if (why) failures.push(`${name} = ${shown}: ${why}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(await snapshot(), before, "no refused call stored anything");
  } finally {
    await memory.close();
  }
});

test("renderEvidence handed recall hits instead of units says to pass their units", async () => {
  const memory = await openMemory({ db: ":memory:", embedder: "hash", defaultNamespace: "library" });
  try {
    await memory.add([{ role: "user", content: "My grandmother gave me a silver necklace." }], { sessionId: "s1" });
    const { hits } = await memory.recall("necklace");
    assert.ok(hits.length > 0);
    assert.throws(
      () => renderEvidence(hits as never),
      (e: unknown) => e instanceof RamemError && e.code === "BAD_ARGUMENT" && e.where === "units[0]" && (e.hint ?? "").includes("hits.map((h) => h.unit)"),
    );
    assert.throws(() => renderEvidence([{ unit: {} }] as never), (e: unknown) => e instanceof RamemError && e.where === "units[0]" && /recall hit/.test(e.message));
    // Their units, as the hint says, render.
    assert.equal(renderEvidence(hits.map((h) => h.unit)).included.length, hits.length);
  } finally {
    await memory.close();
  }
});
