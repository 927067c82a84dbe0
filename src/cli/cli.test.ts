/**
 * End-to-end tests of the `ramem` CLI: each test spawns `src/cli/main.ts` as a
 * child process on temp stores, as a user would run it. Fixtures are synthetic
 * (src/cli/testing/, src/bench/testing/). Most runs use `--embedder hash`
 * (fast, deterministic); the demo uses the default offline model (use-lite).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { ROOT, runCli as ramem, type CliRun as Run } from "./testing/run-cli.js";

const FIX = join(ROOT, "src/cli/testing");
const GARDEN = join(FIX, "garden-club.json");
const GARDEN_CHANGED = join(FIX, "garden-club-changed.json");
const MOVED = join(FIX, "moved-to-porto.json");
const CHESS = join(FIX, "chess-log.jsonl");
const LOCOMO = join(ROOT, "src/bench/testing/locomo-tiny.json");


function json(run: Run): any {
  assert.equal(run.code, 0, `exit code 0 expected; stderr:\n${run.stderr}`);
  const line = run.stdout.trim().split("\n").at(-1)!;
  return JSON.parse(line);
}

interface Stats {
  namespaces: number;
  sessions: number;
  units: number;
  embedder: string | null;
  perNamespace: Array<{ namespace: string; sessions: number; units: number }>;
}

/** `ramem stats --json`, spawned. */
async function cliStats(db: string): Promise<Stats> {
  return json(await ramem(["stats", "--db", db, "--json"])) as Stats;
}

/** The same shape read in-process: spawning the CLI for every check would make the suite slow. */
async function stats(db: string): Promise<Stats> {
  const store = await openSqliteStore(db);
  try {
    const perNamespace = [];
    for (const namespace of await store.listNamespaces()) perNamespace.push({ namespace, ...(await store.stats(namespace)) });
    return { ...(await store.stats()), perNamespace };
  } finally {
    await store.close();
  }
}

function ns(s: Stats, name: string) {
  return s.perNamespace.find((n) => n.namespace === name);
}

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "ramem-cli-test-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe("ramem demo", { concurrency: 2 }, () => {
  test("runs offline with the default model and prints memories with their episodic context", async () => {
    const run = await ramem(["demo", "--db", join(dir, "demo.db")]);
    assert.equal(run.code, 0, run.stderr);
    const out = run.stdout;
    const header = /ramem demo — (\d+) sessions, (\d+) turns → (\d+) memory units \(embedder (\S+),/.exec(out);
    assert.ok(header, `demo header missing:\n${out}`);
    assert.equal(header[1], "3");
    assert.equal(header[2], "19");
    assert.equal(header[3], "19", "one unit per turn on a fresh store");
    assert.match(header[4]!, /^use-lite@/, "the default embedder is the offline use-lite model");
    // Every query block shows ranked hits with provenance turn ids and session id + date.
    assert.match(out, /\? When did Nadia go to Lisbon\?/);
    assert.match(out, /#1 {2}\[s\d+:\d+\] .+/);
    assert.match(out, /session s\d+ · \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    // Event time resolved from "yesterday" / "last week" etc., with its granularity.
    assert.match(out, /event .+ \((day|week|month|year)\)/);
    assert.match(out, /score \d\.\d{2} \(content \d+\.\d{4}\)/);
    const lisbon = out.split("\n? ").find((b) => b.startsWith("When did Nadia go to Lisbon?"))!;
    assert.match(lisbon.split("\n#2")[0]!, /Lisbon/, "the top hit for the Lisbon question mentions Lisbon");
  });

  test("--json gives hits with content, context, provenance turn ids and scores", async () => {
    const out = json(await ramem(["demo", "--json", "--embedder", "hash", "--k", "4"]));
    assert.equal(out.ingest.sessions, 3);
    assert.equal(out.ingest.unitsWritten, out.ingest.turns);
    assert.ok(out.results.length >= 3);
    for (const r of out.results) {
      assert.equal(typeof r.query, "string");
      assert.equal(r.hits.length, 4, "--k 4 gives 4 hits");
      r.hits.forEach((h: any, i: number) => {
        assert.equal(h.rank, i + 1);
        assert.ok(typeof h.content === "string" && h.content.length > 0);
        assert.ok(Number.isFinite(h.score) && h.score > 0);
        assert.match(h.context.session.sessionId, /^s\d$/);
        assert.match(h.context.session.start, /^\d{4}-\d{2}-\d{2}T/);
        assert.ok("eventTime" in h.context);
        assert.equal(h.provenance.sessionId, h.context.session.sessionId);
        assert.ok(h.provenance.turnIds.length >= 1);
        for (const t of h.provenance.turnIds) assert.match(t, new RegExp(`^${h.provenance.sessionId}:\\d+$`));
      });
      // `score` is the fused content score; the final order may also use the episode (recall frame), so only ranks are ordered.
    }
    const adopt = out.results.find((r: any) => r.query === "What did Tom adopt?");
    assert.ok(adopt.hits.slice(0, 2).some((h: any) => /adopted a cat/.test(h.content)), "the adoption turn is in the top 2");
    const withEvent = out.results.flatMap((r: any) => r.hits).filter((h: any) => h.context.eventTime);
    assert.ok(withEvent.length > 0, "some hits carry an event time");
    assert.match(withEvent[0].context.eventTime.granularity, /^(day|week|month|year|hour|minute|season|decade)$/);
  });
});

describe("ramem reindex (SQLite)", () => {
  test("a store whose namespaces are all below the index threshold reports that there is no index to build, as text and as JSON", async () => {
    const db = join(dir, "reindex.db");
    assert.equal((await ramem(["ingest", "--db", db, "--embedder", "hash", "--quiet", GARDEN])).code, 0);
    const text = await ramem(["reindex", "--db", db, "--embedder", "hash"]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /no namespace has 20,000 units or more: every dense search is exact/);
    const out = json(await ramem(["reindex", "--db", db, "--embedder", "hash", "--json", "--rebuild"]));
    assert.deepEqual({ action: out.action, vectors: out.vectors, namespaces: out.namespaces }, { action: "none", vectors: 0, namespaces: [] });
    const missing = await ramem(["reindex", "--db", join(dir, "no-such.db")]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /hint:/);
  });
});

describe("ramem ingest", { concurrency: 2 }, () => {
  test("native JSON: prints units/s, then stats and recall see the units", async () => {
    const db = join(dir, "native.db");
    const run = await ramem(["ingest", "--db", db, "--embedder", "hash", GARDEN]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /ingested 2 sessions \(0 unchanged\), 5 turns → 5 units written in [\d.]+ s \([\d.]+ units\/s, [\d.]+ turns\/s\)/);
    assert.match(run.stdout, /namespaces: garden-club/);
    const s = await cliStats(db);
    assert.equal(s.units, 5);
    assert.equal(s.sessions, 2);
    assert.equal(s.embedder, "hash-bow@1:256");
    assert.deepEqual(ns(s, "garden-club"), { ...ns(s, "garden-club")!, sessions: 2, units: 5 });
  });

  test("native JSONL with --json output", async () => {
    const db = join(dir, "jsonl.db");
    const out = json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", "--quiet", CHESS]));
    assert.deepEqual(out.namespaces, ["chess"]);
    assert.equal(out.sessions, 2);
    assert.equal(out.turns, 3);
    assert.equal(out.unitsWritten, 3);
    assert.equal(out.sessionsUnchanged, 0);
    assert.ok(out.unitsPerSecond > 0);
    assert.equal(out.droppedEvidence, 0);
    // Three turns are anchored in this process: threads would only add their start-up.
    assert.equal(out.anchorerThreads, 1);
    const rec = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "chess", "--json", "--k", "1", "Sicilian defence chess brother"]));
    assert.deepEqual(rec.hits[0].provenance, { sessionId: "m1", turnIds: ["m1:1"] });
  });

  test("LoCoMo: namespaces are sample ids, dia_ids kept in provenance, re-ingest writes nothing", async () => {
    const db = join(dir, "locomo.db");
    const first = json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--format", "locomo", "--json", LOCOMO]));
    assert.deepEqual(first.namespaces, ["orchard-1", "orchard-2"]);
    assert.equal(first.sessions, 5);
    assert.equal(first.turns, 13);
    assert.equal(first.unitsWritten, 13);
    assert.equal(first.droppedEvidence, 1, "the dangling evidence id D3:9 is dropped");
    const before = await stats(db);
    assert.equal(before.units, 13);
    assert.equal(ns(before, "orchard-1")!.units, 9);
    assert.equal(ns(before, "orchard-2")!.units, 4);

    const rec = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "orchard-1", "--json", "--k", "3", "grey rabbit named Pebble"]));
    assert.equal(rec.namespace, "orchard-1");
    assert.equal(rec.k, 3);
    assert.equal(rec.hits.length, 3);
    assert.deepEqual(rec.hits[0].provenance, { sessionId: "session_3", turnIds: ["D3:2"] });
    assert.equal(rec.hits[0].context.session.start, "2023-06-05T19:30:00.000Z");
    for (const h of rec.hits) for (const t of h.provenance.turnIds) assert.match(t, /^D\d+:\d+$/);

    // The photo's blip caption is kept as an image attachment in the unit.
    const photo = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "orchard-1", "--json", "--k", "1", "wooden bird house on a garden fence"]));
    assert.deepEqual(photo.hits[0].provenance.turnIds, ["D1:4"]);
    assert.match(photo.hits[0].content, /bird house/);

    const second = json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--format", "locomo", "--json", LOCOMO]));
    assert.equal(second.unitsWritten, 0, "unchanged sessions are not rewritten");
    assert.equal(second.sessionsUnchanged, 5);
    const afterStats = await stats(db);
    assert.equal(afterStats.units, before.units);
    assert.equal(afterStats.sessions, before.sessions);
  });

  test("a changed session has its units replaced, unchanged sessions are skipped", async () => {
    const db = join(dir, "changed.db");
    json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", GARDEN]));
    const out = json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", GARDEN_CHANGED]));
    assert.equal(out.sessionsUnchanged, 1, "the spring session did not change");
    assert.equal(out.unitsWritten, 3, "only the summer session (now 3 turns) is rewritten");
    const s = await stats(db);
    assert.equal(ns(s, "garden-club")!.units, 6, "3 + 3 units: no duplicates, no leftovers");
    assert.equal(ns(s, "garden-club")!.sessions, 2);
    const rec = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", "--json", "--k", "10", "telescope Saturn rings Jupiter moons"]));
    assert.equal(rec.hits.length, 6);
    assert.ok(rec.hits.every((h: any) => !/Saturn/.test(h.content)), "the old text is gone");
    assert.ok(rec.hits.some((h: any) => /Jupiter/.test(h.content)));
    const summerTurns = rec.hits.filter((h: any) => h.provenance.sessionId === "summer").flatMap((h: any) => h.provenance.turnIds).sort();
    assert.deepEqual(summerTurns, ["summer:1", "summer:2", "summer:3"]);
  });
});

describe("ramem recall", { concurrency: 2 }, () => {
  let db: string;
  before(async () => {
    db = join(dir, "recall.db");
    json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", "--quiet", GARDEN]));
    json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", "--quiet", CHESS]));
    json(await ramem(["ingest", "--db", db, "--embedder", "hash", "--json", "--quiet", MOVED]));
  });

  test("--k, --namespace and the --json fields", async () => {
    const out = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", "--k", "2", "--json", "Where did Ines buy the purple carrot seeds?"]));
    assert.equal(out.query, "Where did Ines buy the purple carrot seeds?");
    assert.equal(out.k, 2);
    assert.equal(out.hits.length, 2);
    const top = out.hits[0];
    for (const field of ["rank", "score", "id", "content", "context", "provenance", "channels", "reasons"]) assert.ok(field in top, `hit has ${field}`);
    assert.ok(top.provenance.sessionId === "spring", "the carrot question is answered from the spring session");
    assert.ok(out.hits.every((h: any) => ["spring", "summer"].includes(h.provenance.sessionId)), "nothing from another namespace");
    assert.ok(Array.isArray(top.reasons) && top.reasons.length > 0);

    const chess = json(await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "chess", "--k", "10", "--json", "Where did Ines buy the purple carrot seeds?"]));
    assert.ok(chess.hits.length <= 3);
    assert.ok(chess.hits.every((h: any) => ["m1", "m2"].includes(h.provenance.sessionId)), "namespaces never leak into each other");
  });

  test("human output shows rank, turn ids, content and the session line", async () => {
    const run = await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", "-k", "1", "slugs ate the lettuce"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /#1 {2}\[summer:2\] .*slugs/);
    assert.match(run.stdout, /session summer · 2023-07-15 18:30/);
    assert.doesNotMatch(run.stdout, /#2/);
  });

  test("an unknown namespace is a user error (exit 2) naming the namespaces that exist", async () => {
    const run = await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "no-such-ns", "carrots"]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^error: namespace "no-such-ns" holds no sessions in /);
    assert.match(run.stderr, /hint: pass one of its namespaces with --namespace: .*chess/);
    assert.match(run.stderr, /garden-club/);
  });

  test("the frame line says what was applied: the active frame's conditions, or the state rules an inactive frame still ran", async () => {
    const frameLine = async (ns: string, query: string) => {
      const run = await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", ns, "-k", "3", query]);
      assert.equal(run.code, 0, run.stderr);
      return { line: run.stdout.split("\n")[0]!, out: run.stdout };
    };
    // No condition grounded, but the current-state and state-slot cues put Porto first and Lisbon behind it.
    const now = await frameLine("moves", "Where do I live now?");
    assert.match(now.line, /^frame: inactive; state rules applied: current value first \(slot residence\), superseded ones after their successor \(or last\)/);
    assert.doesNotMatch(now.line, /content ranking only/);
    assert.match(now.line, / · need: "Where do I live now\?"$/);
    // The hits, past the evidence line (whose closest memory may be any of them).
    const hitLines = now.out.slice(now.out.indexOf("#1 "));
    assert.ok(hitLines.indexOf("Porto") < hitLines.indexOf("Lisbon"), now.out);
    // An active frame names its conditions; a past state asked too.
    // A cue that moved a hit says so too: "where" lifts the memories that name a place.
    assert.match((await frameLine("moves", "Where did Ana live in March 2023?")).line, /^frame: active \(time during March 2023; people Ana\); state rules applied: value valid then first \(slot residence\); cues applied: units naming a place lifted \(asks where\) · need:/);
    assert.match((await frameLine("garden-club", "What did Oskar say in July 2023?")).line, /^frame: active \(time during July 2023; people Oskar\) · need: "What did Oskar say\?"$/);
    // Nothing of the frame used: content ranking only, as before.
    assert.match((await frameLine("garden-club", "purple carrots")).line, /^frame: inactive \(content ranking only\) · need: "purple carrots"$/);
  });

  test("an empty query exits 2 with a clear message", async () => {
    // Whitespace-only queries are covered in src/memory.test.ts (one spawn less here).
    const run = await ramem(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", ""]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /error: (query: )?the query is empty/);
    assert.match(run.stderr, /hint: pass the question or topic/);
    assert.equal(run.stdout, "");
  });
});
