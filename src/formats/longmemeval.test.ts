import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RamemError } from "../model/errors.js";
import { readConversationFile } from "./conversation-file.js";
import { parseLongMemEvalDate, readLongMemEval } from "./longmemeval.js";

const fixture = fileURLToPath(new URL("./fixtures/longmemeval-mini.json", import.meta.url));
const mini = (): Array<Record<string, unknown>> => JSON.parse(readFileSync(fixture, "utf8")) as Array<Record<string, unknown>>;

function expectBadInput(fn: () => unknown, where: RegExp, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof RamemError, String(e));
    assert.equal(e.code, "BAD_INPUT");
    assert.match(e.where ?? "", where);
    assert.match(e.message, message);
    assert.ok(e.hint);
    return true;
  });
}

describe("LongMemEval reader", () => {
  it("gives every question its own namespace with its haystack", async () => {
    const { conversations, report } = await readConversationFile(fixture);
    assert.deepEqual(conversations.map((c) => c.namespace), ["lme:q-pets", "lme:q-count_abs"]);
    const c = conversations[0]!;
    assert.deepEqual(c.sessions.map((s) => s.session.id), ["h-1", "h-2", "h-1#2"]);
    const [h1, h2] = c.sessions;
    assert.equal(h1!.session.startTime, "2023-05-20T02:21:00.000Z");
    assert.equal(h1!.session.endTime, h1!.session.startTime);
    assert.deepEqual(h1!.turns.map((t) => [t.id, t.speaker]), [["h-1:1", "user"], ["h-1:2", "assistant"]]);
    // The empty assistant turn is skipped; ids stay positional.
    assert.deepEqual(h2!.turns.map((t) => t.id), ["h-2:1", "h-2:3"]);
    assert.deepEqual(report.warnings, [
      "q-pets: empty assistant turn h-2:2 skipped",
      "q-pets: haystack session id h-1 repeats; occurrence 2 renamed h-1#2",
    ]);
    assert.deepEqual(c.questions, [
      {
        id: "q-pets",
        namespace: "lme:q-pets",
        question: "What is the name of my cat?",
        answer: "Miso",
        category: "single-session-user",
        evidence: ["h-1:1"],
        questionDate: "2023-05-30T18:05:00.000Z",
        answerSessionIds: ["h-1"],
      },
    ]);
    const abs = conversations[1]!.questions![0]!;
    assert.equal(abs.id, "q-count_abs");
    assert.equal(abs.answer, "2");
    assert.deepEqual(abs.evidence, []);
  });

  it("uses the namespace option as the prefix", () => {
    const { conversations } = readLongMemEval(mini(), { namespace: "lme-s" });
    assert.deepEqual(conversations.map((c) => c.namespace), ["lme-s:q-pets", "lme-s:q-count_abs"]);
  });

  it("parses the dataset's date format exactly, with chrono as fallback", () => {
    assert.equal(parseLongMemEvalDate("2023/05/20 (Sat) 02:21", "d"), "2023-05-20T02:21:00.000Z");
    assert.equal(parseLongMemEvalDate("2023/02/28 (Tue) 10:00", "d"), "2023-02-28T10:00:00.000Z");
    assert.equal(parseLongMemEvalDate("8 May 2023", "d"), "2023-05-08T00:00:00.000Z");
    expectBadInput(() => parseLongMemEvalDate("2023/02/30 (Thu) 10:00", "d"), /^d$/, /not a real date/);
    expectBadInput(() => parseLongMemEvalDate("someday", "d"), /^d$/, /cannot read the date/);
  });

  it("rejects bad items with a path", () => {
    const badRole = mini();
    (badRole[0]!.haystack_sessions as Array<Array<Record<string, unknown>>>)[1]![0]!.role = "system";
    expectBadInput(() => readLongMemEval(badRole, { source: "lme.json" }), /^lme\.json › q-pets › session h-2 › turn 1 › role$/, /unknown speaker format/);

    const badDate = mini();
    (badDate[0]!.haystack_dates as string[])[2] = "not a date";
    expectBadInput(() => readLongMemEval(badDate, { source: "lme.json" }), /^lme\.json › q-pets › haystack_dates\[2\]$/, /cannot read the date/);

    const mismatch = mini();
    (mismatch[1]!.haystack_dates as string[]).push("2023/04/03 (Mon) 07:30");
    expectBadInput(() => readLongMemEval(mismatch, { source: "lme.json" }), /^lme\.json › q-count_abs$/, /differ in length/);

    // A turn longer than a turn may be is cut (with a warning), not refused; never between the halves of a surrogate pair.
    const huge = mini();
    (huge[1]!.haystack_sessions as Array<Array<Record<string, unknown>>>)[0]![0]!.content = `${"z".repeat(63_999)}🙂${"z".repeat(936_000)}`;
    const cut = readLongMemEval(huge, { source: "lme.json" });
    assert.match(cut.report.warnings?.join("\n") ?? "", /q-count_abs: user turn m-1:1 is 1,000,001 characters; kept the first 64,000/);
    const kept = cut.conversations.flatMap((c) => c.sessions).find((s) => s.session.id === "m-1")!.turns[0]!.text;
    assert.equal(kept.length, 63_999, "the emoji straddling the limit is dropped whole");

    const dupQ = mini();
    dupQ[1]!.question_id = "q-pets";
    expectBadInput(() => readLongMemEval(dupQ, { source: "lme.json" }), /\[1\] › question_id$/, /duplicate question_id/);
  });

  it("keeps the first 64,000 characters of a pasted document and says so, instead of refusing the file", () => {
    const huge = mini();
    (huge[1]!.haystack_sessions as Array<Array<Record<string, unknown>>>)[0]![0]!.content = "z".repeat(1_000_000);
    const { conversations, report } = readLongMemEval(huge, { source: "lme.json" });
    const turn = conversations[1]!.sessions[0]!.turns[0]!;
    assert.equal(turn.text.length, 64_000);
    assert.ok(report.warnings?.some((w) => /q-count_abs: user turn m-1:1 is 1,000,000 characters; kept the first 64,000/.test(w)), report.warnings?.join("\n"));
  });

  it("gives every turn its role", () => {
    const { conversations } = readLongMemEval(mini(), { source: "lme.json" });
    const turns = conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns));
    assert.ok(turns.length > 0);
    assert.ok(turns.every((t) => t.role === t.speaker && (t.role === "user" || t.role === "assistant")));
  });
});
