import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { PassThrough } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../testing/run-cli.js";
import { openMemory } from "../../open-memory.js";
import { confirmOnTerminal } from "../confirm.js";
import { RamemError } from "../../model/errors.js";

const canariesIn = (db: string, canaries: string[]) => {
  const text = Buffer.concat([db, `${db}-wal`, `${db}-shm`].filter(existsSync).map((f) => readFileSync(f))).toString("latin1").toLowerCase();
  return canaries.filter((c) => text.includes(c));
};

test("ramem forget unit | session | namespace: asks (or needs --yes), deletes, scrubs the file, --json, clear errors", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-forget-cli-"));
  const db = join(dir, "f.db");
  try {
    const memory = await openMemory({ db, embedder: "hash", languageModel: null, env: {} });
    const at = "2023-05-08T13:56:00.000Z";
    await memory.ingest([
      { session: { id: "s1", namespace: "ns", startTime: at, endTime: at, participants: ["Ana"] }, turns: [{ id: "t1", speaker: "Ana", text: "The zqxclicanary code." }, { id: "t2", speaker: "Ana", text: "And the zqxclisession plan." }] },
      { session: { id: "s2", namespace: "ns", startTime: at, endTime: at, participants: ["Ben"] }, turns: [{ id: "u1", speaker: "Ben", text: "Kept zqxclikept words." }] },
      { session: { id: "o1", namespace: "zqxclinamespace", startTime: at, endTime: at, participants: ["Cy"] }, turns: [{ id: "o1", speaker: "Cy", text: "Other zqxcliother words." }] },
    ]);
    const unit = (await memory.list({ namespace: "ns", sessionId: "s1" })).find((u) => u.content.includes("zqxclicanary"))!;
    await memory.close();

    const refused = await runCli(["forget", "unit", unit.id, "--namespace", "ns", "--db", db]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /Forget unit ".*" of namespace "ns".*there is no terminal to ask, so nothing was deleted/);
    assert.match(refused.stderr, /hint: pass --yes/);
    assert.deepEqual(canariesIn(db, ["zqxclicanary"]), ["zqxclicanary"]);

    const one = await runCli(["forget", "unit", unit.id, "--namespace", "ns", "--db", db, "--yes"]);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /^forgot unit ".*" of namespace "ns" \(.*zqxclicanary.*\): 1 memory deleted; scrubbed from the store's files \(fts optimize, wal checkpoint \(truncate\)\)\n$/);
    assert.deepEqual(canariesIn(db, ["zqxclicanary", "zqxclisession", "zqxclikept"]), ["zqxclisession", "zqxclikept"]);

    const session = await runCli(["forget", "session", "s1", "--namespace", "ns", "--db", db, "--yes", "--json"]);
    assert.equal(session.code, 0, session.stderr);
    const report = JSON.parse(session.stdout);
    assert.deepEqual({ ...report, scrub: report.scrub.complete }, { namespace: "ns", what: "session", id: "s1", unitsDeleted: 1, purged: false, scrub: true });
    assert.deepEqual(canariesIn(db, ["zqxclisession", "zqxclikept"]), ["zqxclikept"]);

    const ns = await runCli(["forget", "namespace", "zqxclinamespace", "--db", db, "--yes", "--purge", "--json"]);
    assert.equal(ns.code, 0, ns.stderr);
    assert.deepEqual(JSON.parse(ns.stdout).scrub.steps, ["fts optimize", "vacuum", "wal checkpoint (truncate)"]);
    assert.deepEqual(canariesIn(db, ["zqxclinamespace", "zqxcliother", "zqxclikept"]), ["zqxclikept"]);

    const errors: Array<[string[], RegExp]> = [
      [["forget", "unit", "u_nope", "--namespace", "ns", "--yes"], /no unit "u_nope" in namespace "ns"/],
      [["forget", "session", "s1", "--namespace", "ns", "--yes"], /no session "s1" in namespace "ns"/],
      [["forget", "session", "s2", "--yes"], /forget session needs --namespace/],
      [["forget", "unit", "--namespace", "ns", "--yes"], /forget unit needs the unit id/],
      [["forget", "namespace", "zqxclinamespace", "--yes"], /namespace "zqxclinamespace" holds nothing/],
      [["forget", "everything", "--yes"], /'everything' is invalid for argument 'what'. Allowed choices are unit, session, namespace/],
    ];
    for (const [args, message] of errors) {
      const r = await runCli([...args, "--db", db]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(" "));
    }
    const missing = await runCli(["forget", "namespace", "ns", "--yes", "--db", join(dir, "none.db")]);
    assert.equal(missing.code, 2);
    assert.ok(!existsSync(join(dir, "none.db")), "forget does not create a store");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("confirmOnTerminal: only y/yes on a terminal confirms; without a terminal it refuses", async () => {
  const ask = async (answer: string) => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    const pending = confirmOnTerminal("Forget it? [y/N] ", { input, output });
    input.end(`${answer}\n`);
    return pending;
  };
  assert.equal(await ask("y"), true);
  assert.equal(await ask(" YES "), true);
  assert.equal(await ask("n"), false);
  assert.equal(await ask(""), false);
  await assert.rejects(confirmOnTerminal("Forget it? [y/N] ", { input: new PassThrough(), output: new PassThrough() }), (e: unknown) => e instanceof RamemError && e.code === "CONFIRMATION_REQUIRED");
});
