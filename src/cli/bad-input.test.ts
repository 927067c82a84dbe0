/**
 * Bad input through the CLI: every case must exit 2, name the file and the
 * line or field on stderr, say what to do (a "hint:" line), and leave the
 * store that already holds data exactly as it was (checked with `stats`).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../store/sqlite/sqlite-store.js";
import { ROOT, runCli as ramem, type CliRun as Run } from "./testing/run-cli.js";

const FIX = join(ROOT, "src/cli/testing");


let dir: string;
let db: string;
let snapshot: string;
let cliSnapshot: string;

/** `ramem stats --json` of the store, minus its path: what a user would compare. */
async function cliStats(): Promise<string> {
  const run = await ramem(["stats", "--db", db, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.stringify({ ...JSON.parse(run.stdout), store: undefined });
}

/** The same numbers read in-process (a spawn per case would be slow), plus every session's content hash. */
async function storeState(): Promise<string> {
  const store = await openSqliteStore(db);
  try {
    const perNamespace = [];
    for (const ns of await store.listNamespaces()) perNamespace.push({ ns, stats: await store.stats(ns), sessions: await store.listSessions(ns) });
    return JSON.stringify({ stats: await store.stats(), perNamespace });
  } finally {
    await store.close();
  }
}

/** Runs a bad command and checks the contract: exit 2, where + what + hint on stderr, store untouched. */
async function rejects(args: string[], expected: { where: RegExp; what: RegExp }): Promise<Run> {
  const run = await ramem(args);
  assert.equal(run.code, 2, `exit code 2 expected, got ${run.code}; stderr:\n${run.stderr}`);
  assert.match(run.stderr, /^error: /m);
  assert.match(run.stderr, expected.where, "stderr names the file and the line or field");
  assert.match(run.stderr, expected.what, "stderr says what is wrong");
  assert.match(run.stderr, /hint: \S+/, "stderr says what to do");
  assert.doesNotMatch(run.stderr, /\n\s+at .+\(.+:\d+:\d+\)/, "no stack trace");
  assert.equal(await storeState(), snapshot, "nothing stored was lost or half-written");
  return run;
}

const ingest = (file: string, ...extra: string[]) => ["ingest", "--db", db, "--embedder", "hash", "--quiet", ...extra, file];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "ramem-bad-input-"));
  db = join(dir, "store.db");
  for (const args of [ingest(join(FIX, "garden-club.json")), ingest(join(ROOT, "src/bench/testing/locomo-tiny.json"), "--format", "locomo")]) {
    const run = await ramem(args);
    assert.equal(run.code, 0, run.stderr);
  }
  snapshot = await storeState();
  cliSnapshot = await cliStats();
  const s = JSON.parse(cliSnapshot);
  assert.equal(s.units, 18, "the store already holds data");
  assert.equal(s.namespaces, 3);
  assert.equal(s.sessions, 7);
});
after(async () => {
  // Once more through the CLI, after every bad command has run.
  if (cliSnapshot) assert.equal(await cliStats(), cliSnapshot, "`ramem stats` unchanged after all the bad input");
  rmSync(dir, { recursive: true, force: true });
});

describe("bad input keeps the store intact", { concurrency: 3 }, () => {
  test("malformed JSON: file, line and column", async () => {
    await rejects(ingest(join(FIX, "bad-syntax.json")), { where: /bad-syntax\.json:7:5: /, what: /malformed JSON/ });
  });

  test("malformed JSONL line: file and line number", async () => {
    await rejects(ingest(join(FIX, "bad-line.jsonl")), { where: /bad-line\.jsonl:3(:\d+)?: /, what: /malformed JSON on line 3/ });
  });

  test("speaker given as an object", async () => {
    await rejects(ingest(join(FIX, "bad-speaker.json")), {
      where: /bad-speaker\.json › sessions\[0\] \(autumn\) › turn 2 › speaker/,
      what: /unknown speaker format: got an object/,
    });
  });

  test("unparseable date", async () => {
    await rejects(ingest(join(FIX, "bad-date.json")), { where: /bad-date\.json › sessions\[0\] \(autumn\) › startTime/, what: /cannot read the date "sometime after the harvest"/ });
  });

  test("empty turn", async () => {
    await rejects(ingest(join(FIX, "empty-turn.json")), { where: /empty-turn\.json › sessions\[0\] \(autumn\) › turn 2 › text/, what: /turn is empty/ });
  });

  test("a 1 MB turn", async () => {
    const file = join(dir, "huge-turn.json");
    writeFileSync(
      file,
      JSON.stringify({
        namespace: "garden-club",
        sessions: [{ id: "huge", startTime: "2023-11-01T08:00:00Z", turns: [{ speaker: "Ines", text: "short" }, { speaker: "Oskar", text: "compost ".repeat(131_072) }] }],
      }),
    );
    await rejects(ingest(file), { where: /huge-turn\.json › sessions\[0\] \(huge\) › turn 2 › text/, what: /1,048,576 characters; the limit is 64,000/ });
  });

  test("invalid text: a NUL character or a lone surrogate names the field and the position; invalid UTF-8 names the line and column", async () => {
    const session = (text: string, speaker = "Ines") => JSON.stringify({ namespace: "garden-club", sessions: [{ id: "bad-text", startTime: "2023-11-01T08:00:00Z", turns: [{ speaker: "Oskar", text: "fine" }, { speaker, text }] }] });
    writeFileSync(join(dir, "nul.json"), session("a NUL \u0000 here"));
    await rejects(ingest(join(dir, "nul.json")), { where: /nul\.json › sessions\[0\] \(bad-text\) › turn 2 › text/, what: /contains a NUL character \(U\+0000\) at character 7/ });
    writeFileSync(join(dir, "surrogate.json"), session("ok", "In\ud83des"));
    await rejects(ingest(join(dir, "surrogate.json")), { where: /surrogate\.json › sessions\[0\] \(bad-text\) › turn 2 › speaker/, what: /contains a lone surrogate \(U\+D83D\) at character 3/ });
    const good = Buffer.from(`{"namespace":"garden-club","sessions":[{"id":"latin1","startTime":"2023-11-01T08:00:00Z",\n"turns":[{"speaker":"Ines","text":"caf`);
    writeFileSync(join(dir, "latin1.json"), Buffer.concat([good, Buffer.from([0xe9]), Buffer.from('"}]}]}')]));
    await rejects(ingest(join(dir, "latin1.json")), { where: /latin1\.json: /, what: /invalid UTF-8 at byte \d+ \(line 2, column 39: 0xE9\)/ });
  });

  test("a valid session before an invalid one is not stored either", async () => {
    await rejects(ingest(join(FIX, "half-valid.json")), { where: /half-valid\.json › sessions\[1\] \(broken\) › turn 2 › speaker/, what: /unknown speaker format/ });
  });

  test("an instant that is no date: recall --valid-at", async () => {
    await rejects(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", "--valid-at", "last spring", "carrots"], { where: /--valid-at/, what: /must be an ISO date/ });
  });

  test("a file that does not exist", async () => {
    await rejects(ingest(join(dir, "nope.json")), { where: /nope\.json: /, what: /cannot read the file/ });
  });

  test("embedder mismatch: a hash store recalled with use-lite", async () => {
    const run = await rejects(["recall", "--db", db, "--embedder", "use-lite", "--namespace", "garden-club", "carrots"], {
      where: /store\.db: /,
      what: /store holds vectors of embedder hash-bow@1:256 \(256 dims\); asked to use use-lite\S* \(512 dims\)/,
    });
    assert.match(run.stderr, /use another store file \(--db or --store\)/);
  });

  test("embedder mismatch on ingest writes nothing", async () => {
    await rejects(["ingest", "--db", db, "--embedder", "use-lite", "--quiet", join(FIX, "chess-log.jsonl")], { where: /store\.db: /, what: /store holds vectors of embedder hash-bow/ });
  });

  test("--json errors are machine-readable on stdout too", async () => {
    const run = await rejects(ingest(join(FIX, "bad-date.json"), "--json"), { where: /startTime/, what: /cannot read the date/ });
    const err = JSON.parse(run.stdout).error;
    assert.equal(err.code, "BAD_INPUT");
    assert.match(err.where, /bad-date\.json › sessions\[0\] \(autumn\) › startTime/);
    assert.ok(err.hint.length > 0);
  });

  test("--k 0 on recall", async () => {
    await rejects(["recall", "--db", db, "--embedder", "hash", "--namespace", "garden-club", "--k", "0", "carrots"], { where: /--k/, what: /positive integer/ });
  });

  test("recall, ask, export and stats on a path with no store refuse and create no file", async () => {
    const missing = join(dir, "typo.db");
    for (const args of [
      ["recall", "--db", missing, "--embedder", "hash", "--namespace", "garden-club", "carrots"],
      ["ask", "--db", missing, "--embedder", "hash", "--namespace", "garden-club", "carrots"],
      ["export", "--db", missing, "--namespace", "garden-club"],
      ["stats", "--db", missing],
    ]) {
      await rejects(args, { where: /typo\.db: /, what: /no store at this path/ });
      assert.equal(existsSync(missing), false, `${args[0]} left a file behind`);
    }
  });

  test("an unknown --format", async () => {
    await rejects(ingest(join(FIX, "garden-club.json"), "--format", "xml"), { where: /--format/, what: /xml/ });
  });
});
