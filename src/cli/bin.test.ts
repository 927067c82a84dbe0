/**
 * The `ramem` bin as a real process: what runCli in-process cannot show
 * (the process's exit code, its stdout and stderr). Most CLI tests run
 * in-process (testing/run-cli.ts); these few keep the process honest.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, spawnCli } from "./testing/run-cli.js";
import { COMMANDS } from "./commands/registry.js";

describe("ramem (real process)", () => {
  it("--version prints package.json's version; --help lists every command; a usage error exits 2", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const [v, help, usage] = await Promise.all([spawnCli(["--version"]), spawnCli(["--help"]), spawnCli(["recall"])]);
    assert.equal(v.code, 0);
    assert.equal(v.stdout.trim(), version);
    assert.equal(help.code, 0);
    for (const c of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${c.name}\\b`, "m"), `help lists ${c.name}`);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /missing required argument 'query'/);
  });

  it("a user error exits 2 with where/what/hint on stderr, nothing on stdout", async () => {
    const r = await spawnCli(["recall", "anything", "--db", join(ROOT, "no-such-dir", "x.db")]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /error: .*no store at this path[\s\S]*hint:/);
  });
});
