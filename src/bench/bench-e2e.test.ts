/**
 * The benchmark harness end to end on tiny synthetic files in the LoCoMo and
 * LongMemEval formats (src/bench/testing/), with the hash embedder, a temp
 * cache and, for QA, the fake OpenAI-compatible server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fork } from "node:child_process";
import { once } from "node:events";
import { runLocomoBench, type LocomoBenchResult } from "./locomo/run-locomo.js";
import { runLongMemEvalBench, type LongMemEvalQuestionTrace } from "./longmemeval/run-longmemeval.js";
import { prepareBench } from "./prepare-bench.js";
import { combinedRows, combinedTable } from "./report/combined-report.js";
import { runStatesBench } from "./states/run-states.js";
import { statesTables } from "./report/states-report.js";
import { writeLocomoReport, locomoTables } from "./report/locomo-report.js";
import { writeLongMemEvalReport } from "./report/longmemeval-report.js";
import { createHashEmbedder } from "../providers/hash-embedder.js";
import { createRuleAnchorer } from "../anchoring/rule-anchorer.js";
import { createOpenAICompatibleLanguageModel } from "../providers/openai-compatible/index.js";
import { startFakeOpenAIServer } from "../testing/fake-openai-server.js";
import { RamemError } from "../model/errors.js";
import { countingEmbedder } from "../providers/testing/counting-embedder.js";

const LOCOMO = fileURLToPath(new URL("./testing/locomo-tiny.json", import.meta.url));
const LONGMEMEVAL = fileURLToPath(new URL("./testing/longmemeval-tiny.json", import.meta.url));
const KS = [1, 5, 10];


let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "ramem-bench-test-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe("LoCoMo bench", () => {
  let cache: string;
  let first: LocomoBenchResult;
  let firstEmbeds: number;
  before(async () => {
    cache = join(dir, "locomo-cache");
    const embedder = countingEmbedder();
    first = await runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["content-only"], cacheDir: cache, embedder, anchorer: createRuleAnchorer() });
    firstEmbeds = embedder.texts;
  });

  test("recall per K, dropped evidence, confusable subset, tokens@K; QA skipped without an LLM", () => {
    assert.equal(first.questions, 8);
    assert.deepEqual(first.ks, KS);
    const v = first.variants.find((x) => x.name === "content-only")!;
    assert.ok(v, "the baseline is reported");
    // 7 scored questions: categories 1-4 with evidence; the category 5 one is skipped.
    assert.equal(v.retrieval.evaluated, 7);
    assert.equal(v.retrieval.skipped.category, 1);
    for (const k of KS) {
      const m = v.retrieval.overall[k]!;
      assert.equal(m.n, 7);
      assert.ok(m.recall >= 0 && m.recall <= 1, `R@${k} in [0, 1]`);
      assert.ok(v.tokensAtK[k]! > 0, `tokens@${k} > 0`);
    }
    assert.ok(v.retrieval.overall[1]!.recall <= v.retrieval.overall[5]!.recall, "recall does not fall as K grows");
    assert.equal(v.retrieval.overall[10]!.recall, 1, "with K=10 every evidence turn of this tiny file is found");
    assert.ok(v.tokensAtK[1]! < v.tokensAtK[10]!, "more units, more tokens");
    for (const c of [1, 2, 3, 4]) assert.ok(v.retrieval.perCategory[c]?.[5], `category ${c} reported`);
    assert.equal(v.retrieval.perCategory[5], undefined, "category 5 is not scored for retrieval");
    // …but for the abstain judgment: the one adversarial question against the seven answerable ones.
    assert.equal(v.abstention.abstention, 1);
    assert.equal(v.abstention.answerable, 7);
    assert.ok(v.abstention.aurocJudgment >= 0 && v.abstention.aurocJudgment <= 1);
    assert.match(locomoTables(first), /abstention: does the store hold evidence\? \(7 answerable against 1 adversarial questions/);
    // The score's reliability, read from the top hits of the seven answerable questions.
    assert.ok(v.scoreReliability.hits > 7 && v.scoreReliability.bands.reduce((n, b) => n + b.hits, 0) === v.scoreReliability.hits);
    assert.ok(v.scoreReliability.ece >= 0 && v.scoreReliability.ece <= 1);
    assert.match(locomoTables(first), /score calibration \(the top 20 hits[^\n]*\n\n\| variant \| ECE \| base rate \|/);

    // "D:1:3" and "D2:2; D3:1" are repaired; the dangling "D3:9" is dropped and listed.
    assert.equal(first.evidence.dropped, 1);
    assert.equal(first.evidence.repaired, 2);
    assert.deepEqual(first.evidence.droppedIds, [{ questionId: "orchard-1:q5", raw: "D3:9", reason: "no turn D3:9 in orchard-1 (session 3 has 2 turns)" }]);

    // Teo's "Porto lighthouse and the fort" turn (session 2) is a distractor for the Porto questions.
    assert.equal(first.confusable.k, 20);
    assert.equal(first.confusable.size, first.confusable.ids.length);
    assert.ok(first.confusable.size >= 1, "the distractor in session 2 makes at least one question confusable");
    assert.equal(v.distraction.size, first.confusable.size);

    assert.equal(v.qa, undefined);
    assert.match(first.qaSkipped ?? "", /no LLM configured/);
    assert.match(locomoTables(first), /QA skipped: no LLM configured/);
    assert.ok(firstEmbeds >= 13 + 8, "the first run embeds every unit and every question");
  });

  test("a second run reuses the cache: nothing is embedded or ingested again", async () => {
    const embedder = countingEmbedder();
    const second = await runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["content-only"], cacheDir: cache, embedder, anchorer: createRuleAnchorer() });
    assert.equal(embedder.texts, 0, "no unit and no question embedded again");
    assert.equal(second.cachePath, first.cachePath);
    assert.ok(existsSync(second.cachePath));
    assert.deepEqual(second.variants.map((v) => v.retrieval), first.variants.map((v) => v.retrieval), "same results from the cache");
  });

  test("writeLocomoReport writes report.md, results.json and recall-at-k.svg", () => {
    const out = join(dir, "locomo-out");
    const files = writeLocomoReport(first, out, "ramem bench locomo --data tiny");
    assert.deepEqual(files.map((f) => f.slice(out.length + 1)).sort(), ["recall-at-k.svg", "report.md", "results.json"]);
    const md = readFileSync(join(out, "report.md"), "utf8");
    assert.match(md, /Command: `ramem bench locomo --data tiny`/);
    assert.match(md, /Evidence ids dropped: 1, repaired: 2/);
    assert.match(md, /orchard-1:q5: "D3:9" — no turn D3:9/);
    assert.match(md, /\| content-only \| /);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    assert.equal(results.command, "ramem bench locomo --data tiny");
    assert.equal(results.questions, 8);
    assert.equal(results.variants[0].retrieval.overall["10"].recall, first.variants[0]!.retrieval.overall[10]!.recall);
    const svg = readFileSync(join(out, "recall-at-k.svg"), "utf8");
    assert.match(svg, /^<svg[\s>]/);
    assert.match(svg, /content-only/);
  });

  test("an unknown variant is a clear RamemError", async () => {
    await assert.rejects(
      runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["content-only", "telepathy"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer() }),
      (err: unknown) => {
        assert.ok(err instanceof RamemError);
        assert.equal(err.code, "UNKNOWN_VARIANT");
        assert.match(err.message, /telepathy/);
        assert.match(err.hint ?? "", /content-only/);
        return true;
      },
    );
  });

  test("with an LLM the QA is scored: both F1 variants and the LLM calls", async () => {
    const server = await startFakeOpenAIServer({
      chat: (body) => {
        const last = String(body.messages.at(-1)?.content ?? "");
        if (/What pet did Teo adopt\?/.test(last)) return "a grey rabbit named Pebble\nSources: [1]";
        if (/Where is Noor's pottery course\?/.test(last)) return "at the community centre\nSources: [1]";
        return "No information available";
      },
    });
    try {
      const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake-qa", maxRetries: 0 });
      const r = await runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["content-only"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer(), languageModel: llm });
      assert.equal(r.qaSkipped, null);
      const qa = r.variants[0]!.qa!;
      assert.ok(qa, "QA reported");
      const chats = server.requests.filter((q) => q.path === "/v1/chat/completions");
      assert.equal(qa.calls, 8, "one call per question, category 5 included");
      assert.equal(chats.length, qa.calls, "calls counted as made");
      assert.equal(qa.answered, 8);
      assert.ok(qa.promptTokens > 0 && qa.completionTokens > 0);
      assert.ok(Number.isFinite(qa.official.average) && Number.isFinite(qa.simplemem.average), "both F1 variants present");
      // Two single-hop answers out of three are exact: category 4 F1 = 2/3 under both metrics.
      assert.ok(Math.abs(qa.perCategory[4]!.official - 2 / 3) < 1e-9, `official cat 4 = ${qa.perCategory[4]!.official}`);
      assert.ok(Math.abs(qa.perCategory[4]!.simplemem - 2 / 3) < 1e-9, `SimpleMem cat 4 = ${qa.perCategory[4]!.simplemem}`);
      assert.equal(qa.perCategory[5]!.n, 1);
      assert.ok(qa.official.average > 0 && qa.official.average < 1);
      assert.match(locomoTables(r), /F1 official avg/);
    } finally {
      await server.close();
    }
  });

  test("ramem-llm-frame: every recall frame goes to the LLM once, counted; refused without an LLM", async () => {
    const server = await startFakeOpenAIServer({
      chat: (body) => (body.response_format ? JSON.stringify({ participants: [], time: null, location: null }) : "No information available"),
    });
    try {
      const llm = createOpenAICompatibleLanguageModel({ baseURL: server.url, model: "fake-frame", maxRetries: 0 });
      const r = await runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["ramem", "ramem-llm-frame"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer(), languageModel: llm, qaLimit: 0 });
      const [plain, refined] = [r.variants.find((v) => v.name === "ramem")!, r.variants.find((v) => v.name === "ramem-llm-frame")!];
      const frameCalls = server.requests.filter((q) => q.body?.response_format).length;
      assert.equal(refined.frameLlm!.calls, 8, "one frame call per question");
      assert.equal(frameCalls, 8);
      assert.equal(refined.frameLlm!.failed, 0);
      assert.equal(plain.frameLlm, undefined);
      // A model that adds nothing leaves the ranking as the rules made it.
      assert.deepEqual(refined.retrieval.overall, plain.retrieval.overall);
      assert.match(locomoTables(r), /ramem-llm-frame: 8 LLM frame calls/);
    } finally {
      await server.close();
    }
    await assert.rejects(
      runLocomoBench({ dataPath: LOCOMO, ks: KS, variants: ["ramem-llm-frame"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer() }),
      (err: unknown) => err instanceof RamemError && err.code === "NO_LLM" && /RAMEM_LLM_BASE_URL/.test(err.hint ?? ""),
    );
  });
});

describe("LongMemEval bench", () => {
  test("session- and turn-level recall_any@k, abstention skipped, report written", async () => {
    const cache = join(dir, "lme-cache");
    const r = await runLongMemEvalBench({ dataPath: LONGMEMEVAL, ks: [1, 3, 5], variants: ["content-only", "ramem"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer() });
    assert.equal(r.questions, 3);
    const v = r.variants[0]!;
    assert.equal(v.name, "content-only");
    for (const level of [v.session, v.turn]) {
      assert.equal(level.skippedAbstention, 1, "tiny-car_abs is skipped");
      assert.equal(level.evaluated, 2);
      for (const k of [1, 3, 5]) {
        const m = level.overall[k]!;
        assert.equal(m.n, 2);
        for (const x of [m.recallAny, m.recallAll, m.ndcgAny]) assert.ok(x >= 0 && x <= 1);
      }
      assert.deepEqual(Object.keys(level.perType).sort(), ["multi-session", "single-session-user"]);
    }
    // Haystacks of at most 3 sessions: at k=3 every answer session is in.
    assert.equal(v.session.overall[3]!.recallAny, 1);
    assert.equal(v.session.overall[3]!.recallAll, 1);
    assert.equal(v.turn.overall[5]!.recallAny, 1);
    assert.ok(v.session.overall[1]!.recallAll <= v.session.overall[3]!.recallAll);

    const files = writeLongMemEvalReport(r, join(dir, "lme-out"), "ramem bench longmemeval --data tiny");
    assert.equal(files.length, 3);
    const md = readFileSync(files.find((f) => f.endsWith(".md"))!, "utf8");
    assert.match(md, /3 questions, 1 abstention questions left out of the recall figures/);
    // The abstain judgment is scored on the two answerable questions against tiny-car_abs.
    assert.equal(v.abstention.answerable, 2);
    assert.equal(v.abstention.abstention, 1);
    for (const x of [v.abstention.aurocJudgment, v.abstention.aurocTopScore, v.abstention.flaggedAbstention]) assert.ok(x >= 0 && x <= 1);
    assert.ok(v.scoreReliability.hits > 0 && v.scoreReliability.ece >= 0 && v.scoreReliability.ece <= 1);
    assert.match(md, /score calibration \(the top 20 hits of every answerable question/);
    assert.match(md, /abstention: does the store hold evidence\? \(2 answerable against 1 abstention questions of the data file/);
    // A second file adds its abstention questions only.
    const withAbs = await runLongMemEvalBench({ dataPath: LONGMEMEVAL, abstentionPath: LONGMEMEVAL, ks: [1, 3, 5], variants: ["ramem"], cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer() });
    assert.equal(withAbs.variants[0]!.abstention.answerable, 2);
    assert.equal(withAbs.variants[0]!.abstention.abstention, 2);
    assert.equal(withAbs.abstentionData, LONGMEMEVAL);
    assert.match(md, /Gold — session: the question's answer_session_ids; turn: turns flagged has_answer, of either role/);
    // The per-question trace: one line per question, every variant, gold ranks that agree with the recall metric.
    const traces = readFileSync(files.find((f) => f.endsWith(".jsonl"))!, "utf8").trim().split("\n").map((l) => JSON.parse(l) as LongMemEvalQuestionTrace);
    assert.equal(traces.length, 3);
    for (const t of traces.filter((x) => !x.questionId.includes("_abs"))) {
      for (const name of ["content-only", "ramem"]) {
        const tv = t.variants[name]!;
        assert.ok(tv.top.length > 0 && tv.top.length <= 10);
        assert.deepEqual(Object.keys(tv.goldRanks.turns).sort(), [...t.goldTurns].sort());
        for (const [turn, rank] of Object.entries(tv.goldRanks.turns)) {
          if (rank !== null && rank <= tv.top.length) assert.ok(tv.top.some((h) => h.gold && h.turnIds.includes(turn)), `${t.questionId} ${name} ${turn}`);
        }
        assert.ok(tv.top.every((h) => typeof h.sessionId === "string" && h.reasons.length > 0 && (h.role === "user" || h.role === "assistant")));
      }
      assert.equal(t.variants["content-only"]!.frame, null);
    }
    const json = JSON.parse(readFileSync(files.find((f) => f.endsWith("results.json"))!, "utf8")) as Record<string, unknown>;
    assert.equal(json.traces, undefined, "results.json stays a summary");
    assert.match(md, /\| content-only \| session \| overall \(n=2\)/);
    assert.match(md, /\| content-only \| turn \| multi-session \(n=1\)/);
  });
});

describe("parallel bench ingest", () => {
  test("worker processes write the same units and vectors as one process, and the embedding cache serves a second anchoring", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ramem-parallel-"));
    try {
      const ingest = async (cacheDir: string, workers: number) => {
        const prepared = await prepareBench({
          dataPath: LONGMEMEVAL,
          format: "longmemeval",
          cacheDir,
          embedder: createHashEmbedder(),
          anchorer: createRuleAnchorer(),
          workers,
          providerNames: { embedder: "hash", anchorer: "rule" },
        });
        const units = new Map<string, string>();
        for (const c of prepared.conversations) {
          const listed = await prepared.memory.store.listUnits(c.namespace);
          const vectors = await prepared.memory.store.getUnitEmbeddings(c.namespace, listed.map((u) => u.id));
          for (const u of listed) units.set(u.id, `${u.content}|${Array.from(vectors.get(u.id)!).join(",")}`);
        }
        await prepared.memory.close();
        return { units, embedding: prepared.embedding };
      };
      const one = await ingest(join(dir, "one"), 1);
      const two = await ingest(join(dir, "two"), 2);
      assert.equal(two.embedding.workers, 2);
      assert.ok(one.units.size > 0);
      assert.deepEqual([...two.units].sort(), [...one.units].sort());
      assert.equal(two.embedding.embedded + two.embedding.cached, one.units.size);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("an ingest worker whose parent is gone exits instead of ingesting on", async () => {
  const worker = fileURLToPath(new URL("./ingest-worker.ts", import.meta.url));
  const child = fork(worker, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "ignore", "ignore", "ipc"] });
  await once(child, "message"); // ready: its handlers are in place
  // What a killed parent looks like from the child: the IPC channel closes.
  child.disconnect();
  const [code] = (await Promise.race([once(child, "exit"), new Promise((_, reject) => setTimeout(() => reject(new Error("worker still running 20 s after its parent left")), 20_000))])) as [number | null];
  assert.equal(code, 1);
});

test("bench all: one row per variant with both data sets' figures, and the LongMemEval types a variant loses to content-only", async () => {
  const cache = mkdtempSync(join(tmpdir(), "ramem-all-"));
  try {
    const common = { cacheDir: cache, embedder: createHashEmbedder(), anchorer: createRuleAnchorer(), variants: ["content-only", "bm25", "ramem"] };
    const locomo = await runLocomoBench({ ...common, dataPath: LOCOMO, ks: [5, 10, 20] });
    const lme = await runLongMemEvalBench({ ...common, dataPath: LONGMEMEVAL, ks: [1, 5, 10] });
    const rows = combinedRows(locomo, lme);
    assert.deepEqual(rows.map((r) => r.variant), ["content-only", "bm25", "ramem"]);
    for (const r of rows) {
      assert.equal(r.locomo?.recallAt10, locomo.variants.find((v) => v.name === r.variant)!.retrieval.overall[10]!.recall);
      assert.equal(r.longmemeval?.turnAllAt10, lme.variants.find((v) => v.name === r.variant)!.turn.overall[10]!.recallAll);
    }
    // A type is listed exactly when the variant's recall_all is below content-only's there.
    const base = lme.variants.find((v) => v.name === "content-only")!;
    for (const r of rows.filter((x) => x.variant !== "content-only")) {
      const v = lme.variants.find((x) => x.name === r.variant)!;
      const expected = (["session", "turn"] as const).flatMap((level) =>
        [5, 10].flatMap((k) => Object.keys(v[level].perType).filter((t) => v[level].perType[t]![k]!.recallAll < base[level].perType[t]![k]!.recallAll).map((t) => `${t} ${level}@${k}`)),
      );
      assert.deepEqual(r.longmemeval!.belowContentOnly.map((s) => s.replace(/ -[\d.]+$/, "")), expected);
    }
    const table = combinedTable(rows);
    assert.match(table, /\| content-only \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| \(baseline\) \|/);
    for (const r of rows) assert.equal(r.locomo?.abstainAuroc, locomo.variants.find((v) => v.name === r.variant)!.abstention.aurocJudgment);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test("bench states: valid@1 and stale-first per kind, from the set's kind and stale_evidence fields", async () => {
  const cache = mkdtempSync(join(tmpdir(), "ramem-states-"));
  try {
    const r = await runStatesBench({
      dataPath: fileURLToPath(new URL("./testing/states-tiny.json", import.meta.url)),
      variants: ["content-only", "ramem", "ramem-no-supersession"],
      cacheDir: cache,
      embedder: createHashEmbedder(),
      anchorer: createRuleAnchorer(),
    });
    assert.equal(r.questions, 2);
    assert.deepEqual(Object.keys(r.variants[0]!.perKind).sort(), ["current", "past"]);
    const ramem = r.variants.find((v) => v.name === "ramem")!;
    assert.equal(ramem.perKind.current!.validAt1, 1, JSON.stringify(r.ranks));
    assert.equal(ramem.perKind.current!.staleFirst, 0);
    // The rank rows agree with the summary.
    const current = r.ranks.find((x) => x.kind === "current")!;
    assert.equal(current.variants.ramem!.valid, 1);
    assert.match(statesTables(r), /\| ramem \| [\d.]+ \| [\d.]+ \| [\d.]+ \| 1\.000 \|/);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test("bench states: parts reported apart; a dependent question scores whether its fact is flagged mayBeOutdated, and only then", async () => {
  const cache = mkdtempSync(join(tmpdir(), "ramem-states-parts-"));
  try {
    const tuned = fileURLToPath(new URL("./testing/states-tiny.json", import.meta.url));
    const heldBack = fileURLToPath(new URL("./testing/states-dependent-tiny.json", import.meta.url));
    const r = await runStatesBench({
      parts: [
        { name: "tuned", files: [tuned] },
        { name: "held-back", files: [heldBack] },
      ],
      variants: ["ramem"],
      cacheDir: cache,
      embedder: createHashEmbedder(),
      anchorer: createRuleAnchorer(),
    });
    assert.equal(r.questions, 4);
    assert.deepEqual(r.parts.map((p) => [p.name, p.questions]), [["tuned", 2], ["held-back", 2]]);
    const dependent = r.parts[1]!.variants[0]!.perKind.dependent!;
    assert.equal(dependent.n, 2);
    assert.deepEqual(dependent.dependent, { outdated: 1, flagged: 1, notOutdated: 1, falseFlags: 0 }, JSON.stringify(r.ranks));
    assert.equal(r.ranks.find((x) => x.question.startsWith("How long"))!.supersededBy!.join(), "D2:1");
    assert.match(statesTables(r), /held-back/);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
