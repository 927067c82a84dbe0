import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RamemError } from "../model/errors.js";
import { readConversationFile } from "./conversation-file.js";
import { readLocomo } from "./locomo.js";

const fixture = fileURLToPath(new URL("./fixtures/locomo-mini.json", import.meta.url));
// The dataset is CC BY-NC and lives outside the repo; the totals test runs only where it is present.
const REAL = fileURLToPath(new URL("../../../shared/datasets/locomo/locomo10.json", import.meta.url));
const realSkip = existsSync(REAL) ? false : `LoCoMo not found at ${REAL}`;

const mini = (): unknown[] => JSON.parse(readFileSync(fixture, "utf8")) as unknown[];

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

describe("LoCoMo reader", () => {
  it("maps samples to namespaced conversations and keeps dia_ids as turn ids", async () => {
    const { conversations, report } = await readConversationFile(fixture);
    assert.deepEqual(conversations.map((c) => c.namespace), ["mini-1", "mini-2"]);
    const [s1, s2] = conversations[0]!.sessions;
    assert.equal(s1!.session.id, "session_1");
    assert.equal(s1!.session.namespace, "mini-1");
    assert.equal(s1!.session.startTime, "2023-05-08T13:56:00.000Z");
    assert.equal(s1!.session.endTime, s1!.session.startTime);
    assert.deepEqual(s1!.session.participants, ["Ada", "Bruno"]);
    assert.deepEqual(s1!.turns.map((t) => t.id), ["D1:1", "D1:2"]);
    assert.equal(s2!.session.startTime, "2023-06-27T10:37:00.000Z");
    assert.deepEqual(s2!.turns[1]!.attachments, [{ kind: "image", caption: "a photo of a greenhouse", url: "https://example.org/greenhouse.jpg" }]);
    assert.deepEqual(report.warnings, ["mini-1: 1 session dates without a session ignored (session_3_date_time)"]);
  });

  it("turns QA into benchmark questions with tolerant evidence parsing", async () => {
    const { conversations, report } = await readConversationFile(fixture);
    const qs = conversations[0]!.questions!;
    assert.deepEqual(
      qs.map((q) => [q.id, q.category, q.answer, q.evidence]),
      [
        ["mini-1:q1", 2, "6 May 2023", ["D1:1"]],
        ["mini-1:q2", 1, "12", ["D1:2", "D2:1"]],
        ["mini-1:q3", 4, "a photo of a greenhouse", ["D2:2"]],
        ["mini-1:q4", 3, "in a raised bed", ["D1:1", "D2:2"]],
        ["mini-1:q5", 5, null, ["D1:1"]],
      ],
    );
    assert.equal(qs[4]!.adversarialAnswer, "Yes, cherry tomatoes");
    assert.equal(qs[0]!.adversarialAnswer, undefined);
    assert.equal(qs[0]!.namespace, "mini-1");
    assert.deepEqual(
      report.dropped.map((d) => [d.questionId, d.raw, d.reason]),
      [
        ["mini-1:q4", "D7:1", "no session 7 in mini-1"],
        ["mini-1:q4", "D2:9", "no turn D2:9 in mini-1 (session 2 has 2 turns)"],
        ["mini-1:q4", "D", '"D" is not a dialogue id (D<session>:<turn>)'],
      ],
    );
    assert.deepEqual(
      report.repaired?.map((r) => [r.raw, r.ids]),
      [
        ["D1:2; D2:1", ["D1:2", "D2:1"]],
        ["D:2:2", ["D2:2"]],
        ["D1:1 D2:02", ["D1:1", "D2:2"]],
      ],
    );
  });

  it("puts everything in one namespace on request, keeping turn ids and making session ids unique", async () => {
    const { conversations } = await readConversationFile(fixture, { namespace: "bench" });
    assert.equal(conversations.length, 1);
    const c = conversations[0]!;
    assert.deepEqual(c.sessions.map((s) => s.session.id), ["mini-1/session_1", "mini-1/session_2", "mini-2/session_1"]);
    assert.ok(c.sessions.every((s) => s.session.namespace === "bench"));
    assert.equal(c.sessions[2]!.turns[0]!.id, "D1:1");
    assert.equal(c.questions!.length, 6);
    assert.ok(c.questions!.every((q) => q.namespace === "bench"));
  });

  it("reads a turn's own time and chat role (ramem's sets have them; LoCoMo does not)", () => {
    const data = mini();
    const session1 = (data[0] as { conversation: Record<string, Array<Record<string, unknown>>> }).conversation.session_1!;
    session1[0]!.time = "2023-05-08T13:57:30Z";
    session1[0]!.role = "user";
    session1[1]!.time = "2023-05-08 14:02";
    session1[1]!.role = "assistant";
    const turns = readLocomo(data).conversations[0]!.sessions[0]!.turns;
    assert.equal(turns[0]!.time, "2023-05-08T13:57:30.000Z");
    assert.equal(turns[0]!.role, "user");
    assert.equal(turns[1]!.time, "2023-05-08T14:02:00.000Z");
    assert.equal(turns[1]!.role, "assistant");
    const plain = readLocomo(mini()).conversations[0]!.sessions[1]!.turns;
    assert.ok(plain.every((t) => t.time === undefined && t.role === undefined), "no time or role when the file has none");

    const badTime = mini();
    ((badTime[0] as { conversation: Record<string, Array<Record<string, unknown>>> }).conversation.session_2![0]!).time = "after lunch";
    expectBadInput(() => readLocomo(badTime, { source: "l.json" }), /^l\.json › mini-1 › session_2 › turn 1 \(D2:1\) › time$/, /cannot read the date/);

    const badRole = mini();
    ((badRole[0] as { conversation: Record<string, Array<Record<string, unknown>>> }).conversation.session_1![1]!).role = "narrator";
    expectBadInput(() => readLocomo(badRole, { source: "l.json" }), /^l\.json › mini-1 › session_1 › turn 2 \(D1:2\) › role$/, /unknown role/);
  });

  it("rejects bad samples with a JSON path", () => {
    const badDate = mini();
    (badDate[0] as { conversation: Record<string, unknown> }).conversation.session_2_date_time = "sometime in June";
    expectBadInput(() => readLocomo(badDate, { source: "l.json" }), /^l\.json › mini-1 › session_2_date_time$/, /cannot read the date/);

    const badSpeaker = mini();
    ((badSpeaker[0] as { conversation: Record<string, Array<Record<string, unknown>>> }).conversation.session_2![1]!).speaker = { name: "Bruno" };
    expectBadInput(() => readLocomo(badSpeaker, { source: "l.json" }), /^l\.json › mini-1 › session_2 › turn 2 \(D2:2\) › speaker$/, /unknown speaker format/);

    const emptyTurn = mini();
    ((emptyTurn[1] as { conversation: Record<string, Array<Record<string, unknown>>> }).conversation.session_1![0]!).text = "";
    expectBadInput(() => readLocomo(emptyTurn, { source: "l.json" }), /mini-2 › session_1 › turn 1 \(D1:1\) › text$/, /turn is empty/);

    const badCategory = mini();
    ((badCategory[1] as { qa: Array<Record<string, unknown>> }).qa[0]!).category = 9;
    expectBadInput(() => readLocomo(badCategory, { source: "l.json" }), /mini-2 › qa 1 › category$/, /1\.\.5/);

    expectBadInput(() => readLocomo({ not: "an array" }, { source: "l.json" }), /^l\.json$/, /array of LoCoMo samples/);
  });

  it("matches the published totals on the real file", { skip: realSkip }, async () => {
    const { conversations, report } = await readConversationFile(REAL);
    const sessions = conversations.flatMap((c) => c.sessions);
    const questions = conversations.flatMap((c) => c.questions ?? []);
    assert.equal(conversations.length, 10);
    assert.equal(sessions.length, 272);
    assert.equal(sessions.reduce((n, s) => n + s.turns.length, 0), 5882);
    assert.equal(questions.length, 1986);
    const perCategory = [1, 2, 3, 4, 5].map((k) => questions.filter((q) => q.category === k).length);
    assert.deepEqual(perCategory, [282, 321, 96, 841, 446]);
    // Pinned so a parser change that drops or repairs differently is noticed.
    assert.equal(report.dropped.length, 3);
    assert.equal(report.repaired?.length, 6);
  });
});
