import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RamemError } from "../model/errors.js";
import { MAX_TURN_CHARS } from "../model/conversation.js";
import { detectFormat, readConversationFile } from "./conversation-file.js";
import { parseDate } from "./shared.js";

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "ramem-native-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

function session(turns: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: "s1", startTime: "2023-05-08T13:56:00Z", turns, ...extra };
}

/** Asserts a BAD_INPUT error whose `where` matches, and returns it for further checks. */
async function rejects(p: Promise<unknown>, where: RegExp, message: RegExp): Promise<RamemError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof RamemError, `expected a RamemError, got ${String(caught)}`);
  assert.equal(caught.code, "BAD_INPUT");
  assert.match(caught.where ?? "", where);
  assert.match(caught.message, message);
  assert.ok(caught.hint && caught.hint.length > 10, "every error says what to do");
  return caught;
}

describe("native JSON", () => {
  it("reads a valid file: dates, default ids, participants, attachments", async () => {
    const { conversations, report } = await readConversationFile(fixture("native-valid.json"));
    assert.deepEqual(report.dropped, []);
    assert.equal(conversations.length, 1);
    const c = conversations[0]!;
    assert.equal(c.namespace, "garden-club");
    assert.equal(c.questions, undefined);
    const [s1, s2] = c.sessions;
    assert.equal(s1!.session.startTime, "2023-05-08T13:56:00.000Z");
    assert.equal(s1!.session.endTime, s1!.session.startTime);
    assert.deepEqual(s1!.session.participants, ["Ada", "Bruno", "Cleo"]);
    assert.deepEqual(s1!.turns.map((t) => t.id), ["s1:1", "s1:2", "s1:3"]);
    assert.equal(s1!.turns[1]!.time, "2023-05-08T13:57:00.000Z");
    assert.deepEqual(s1!.turns[2]!.attachments, [{ kind: "image", caption: "a row of tomato seedlings in a raised bed" }]);
    assert.deepEqual(s2!.turns.map((t) => t.id), ["s2-a", "s2-b"]);
    assert.deepEqual(s2!.session.participants, ["Bruno", "Ada"]);
    assert.equal(s2!.session.endTime, "2023-05-15T09:30:00.000Z");
  });

  it("gives the caller's namespace precedence over the file's, and defaults to 'default'", async () => {
    const withOpt = await readConversationFile(fixture("native-valid.json"), { namespace: "mine" });
    assert.equal(withOpt.conversations[0]!.namespace, "mine");
    assert.ok(withOpt.conversations[0]!.sessions.every((s) => s.session.namespace === "mine"));
    const p = write("nons.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "hi" }])] }));
    assert.equal((await readConversationFile(p)).conversations[0]!.namespace, "default");
  });

  it("reports malformed JSON with line and column", async () => {
    const p = write("broken.json", '{\n  "sessions": [\n    { "id": "s1" "startTime": "2023-05-08" }\n  ]\n}\n');
    await rejects(readConversationFile(p, { format: "native" }), /broken\.json:3:\d+$/, /malformed JSON/);
  });

  it("rejects a speaker that is not a string, saying what shape is expected", async () => {
    const p = write("speaker.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "ok" }, { speaker: { name: "Bo" }, text: "hi" }])] }));
    const err = await rejects(readConversationFile(p), /speaker\.json › sessions\[0\] \(s1\) › turn 2 › speaker$/, /unknown speaker format: got an object/);
    assert.match(err.hint!, /non-empty string/);
    const q = write("speaker-num.json", JSON.stringify({ sessions: [session([{ speaker: 7, text: "hi" }])] }));
    await rejects(readConversationFile(q), /turn 1 › speaker$/, /unknown speaker format: got number 7/);
  });

  it("rejects an unparseable or relative date, naming the field and the accepted formats", async () => {
    const p = write("date.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "hi" }], { startTime: "last Tuesday-ish" })] }));
    const err = await rejects(readConversationFile(p), /date\.json › sessions\[0\] \(s1\) › startTime$/, /cannot read the date "last Tuesday-ish"/);
    assert.match(err.hint!, /ISO 8601.*8 May 2023/);
    const q = write("date-turn.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "hi", time: "yesterday" }])] }));
    await rejects(readConversationFile(q), /turn 1 › time$/, /cannot read the date/);
  });

  it("rejects an empty turn without attachments", async () => {
    const p = write("empty.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "hi" }, { speaker: "B", text: "   " }])] }));
    await rejects(readConversationFile(p), /empty\.json › sessions\[0\] \(s1\) › turn 2 › text$/, /turn is empty/);
  });

  it("rejects a 1 MB turn with its length and a hint to split it", async () => {
    const p = write("huge.json", JSON.stringify({ sessions: [session([{ speaker: "A", text: "x".repeat(1_000_000) }])] }));
    const err = await rejects(readConversationFile(p), /huge\.json › sessions\[0\] \(s1\) › turn 1 › text$/, /1,000,000 characters/);
    assert.match(err.message, new RegExp(MAX_TURN_CHARS.toLocaleString("en-US")));
    assert.match(err.hint!, /split/);
  });

  it("rejects duplicate turn ids in a session", async () => {
    const p = write("dup.json", JSON.stringify({ sessions: [session([{ id: "x", speaker: "A", text: "a" }, { id: "x", speaker: "B", text: "b" }])] }));
    await rejects(readConversationFile(p), /turn 2 › id$/, /duplicate turn id "x"/);
  });

  it("a 10 MB value in an error is quoted back cut to 200 characters", async () => {
    const huge = "t".repeat(10_000_000);
    const file = write("huge-ids.json", JSON.stringify({ sessions: [session([{ id: huge, speaker: "Ana", text: "a" }, { id: huge, speaker: "Ben", text: "b" }])] }));
    const err = await rejects(readConversationFile(file), /turn 2 › id/, /^duplicate turn id "t{200}"… \(10,000,000 characters\) \(also turn 1\)$/);
    assert.ok(err.describe().length < 1_000, String(err.describe().length));
  });

  it("validates the whole file: an error in the last session fails the read", async () => {
    const good = session([{ speaker: "A", text: "fine" }]);
    const bad = session([{ speaker: "A", text: "" }], { id: "s9" });
    const p = write("late.json", JSON.stringify({ sessions: [good, bad] }));
    await rejects(readConversationFile(p), /sessions\[1\] \(s9\) › turn 1 › text$/, /empty/);
  });

  it("rejects a missing startTime, duplicate sessions and a bad namespace", async () => {
    await rejects(readConversationFile(write("nostart.json", JSON.stringify({ sessions: [{ id: "s1", turns: [{ speaker: "A", text: "a" }] }] }))), /startTime$/, /no startTime/);
    const s = session([{ speaker: "A", text: "a" }]);
    await rejects(readConversationFile(write("dupsess.json", JSON.stringify({ sessions: [s, s] }))), /sessions\[1\] \(s1\) › id$/, /duplicate session id/);
    await rejects(readConversationFile(write("ns.json", JSON.stringify({ namespace: "has space", sessions: [s] }))), /ns\.json › namespace$/, /invalid namespace/);
  });
});

describe("native JSONL", () => {
  it("groups turn lines by session in file order and splits namespaces", async () => {
    const { conversations } = await readConversationFile(fixture("native-valid.jsonl"));
    assert.deepEqual(conversations.map((c) => c.namespace), ["default", "other-club"]);
    const [a1, b1] = conversations[0]!.sessions;
    assert.equal(a1!.session.id, "a1");
    assert.equal(a1!.session.startTime, "2023-05-08T00:00:00.000Z");
    assert.deepEqual(a1!.turns.map((t) => [t.id, t.speaker, t.text]), [
      ["a1:1", "Ada", "Morning!"],
      ["a1:2", "Bruno", "Morning, how are the tomatoes?"],
      ["a1:3", "Ada", "Growing fast."],
    ]);
    assert.deepEqual(a1!.session.participants, ["Ada", "Bruno"]);
    assert.equal(b1!.session.id, "b1");
    assert.equal(b1!.turns[0]!.id, "b1:1");
    assert.equal(conversations[1]!.sessions[0]!.session.startTime, "2023-06-01T06:00:00.000Z");
  });

  it("reports malformed JSON with the line number", async () => {
    const p = write("bad.jsonl", '{"session":"a","sessionTime":"2023-05-08","speaker":"A","text":"x"}\n\n{"session":"a","speaker":"B","text":"y"\n');
    await rejects(readConversationFile(p), /bad\.jsonl:3(:\d+)?$/, /malformed JSON on line 3/);
  });

  it("names the line of a bad field", async () => {
    const p = write("speaker.jsonl", '{"session":"a","sessionTime":"2023-05-08","speaker":"A","text":"x"}\n{"session":"a","speaker":["B"],"text":"y"}\n');
    await rejects(readConversationFile(p), /speaker\.jsonl:2 › speaker$/, /unknown speaker format: got an array/);
    const q = write("date.jsonl", '{"session":"a","sessionTime":"soonish","speaker":"A","text":"x"}\n');
    await rejects(readConversationFile(q), /date\.jsonl:1 › sessionTime$/, /cannot read the date/);
    const r = write("huge.jsonl", JSON.stringify({ session: "a", sessionTime: "2023-05-08", speaker: "A", text: "y".repeat(1_000_000) }) + "\n");
    await rejects(readConversationFile(r), /huge\.jsonl:1 › text$/, /1,000,000 characters/);
    const s = write("empty.jsonl", '{"session":"a","sessionTime":"2023-05-08","speaker":"A","text":""}\n');
    await rejects(readConversationFile(s), /empty\.jsonl:1 › text$/, /turn is empty/);
  });

  it("rejects sessions without a time, conflicting times, and mixing whole-session and turn lines", async () => {
    await rejects(readConversationFile(write("notime.jsonl", '{"session":"a","speaker":"A","text":"x"}\n')), /notime\.jsonl:1 › sessionTime$/, /no sessionTime/);
    await rejects(
      readConversationFile(write("conflict.jsonl", '{"session":"a","sessionTime":"2023-05-08","speaker":"A","text":"x"}\n{"session":"a","sessionTime":"2023-05-09","speaker":"A","text":"y"}\n')),
      /conflict\.jsonl:2 › sessionTime$/,
      /disagrees/,
    );
    await rejects(
      readConversationFile(write("mixed.jsonl", JSON.stringify(session([{ speaker: "A", text: "x" }])) + '\n{"session":"s1","speaker":"A","text":"y"}\n')),
      /mixed\.jsonl:2 › session$/,
      /given whole on line 1/,
    );
    await rejects(
      readConversationFile(write("dupid.jsonl", '{"session":"a","sessionTime":"2023-05-08","id":"t","speaker":"A","text":"x"}\n{"session":"a","id":"t","speaker":"A","text":"y"}\n')),
      /dupid\.jsonl:2 › id$/,
      /duplicate turn id/,
    );
    await rejects(readConversationFile(write("neither.jsonl", '{"speaker":"A","text":"x"}\n')), /neither\.jsonl:1$/, /neither a session/);
  });
});

describe("dates", () => {
  it("accepts ISO and absolute human dates as UTC, rejects relative ones", () => {
    assert.equal(parseDate("2023-05-08T13:56:00+02:00", "f"), "2023-05-08T11:56:00.000Z");
    assert.equal(parseDate("2023-05-08 13:56", "f"), "2023-05-08T13:56:00.000Z");
    assert.equal(parseDate("2023-05-08", "f"), "2023-05-08T00:00:00.000Z");
    assert.equal(parseDate("1:56 pm on 8 May, 2023", "f"), "2023-05-08T13:56:00.000Z");
    assert.equal(parseDate("10:37 am on 27 June, 2023", "f"), "2023-06-27T10:37:00.000Z");
    assert.equal(parseDate("8 May 2023", "f"), "2023-05-08T00:00:00.000Z");
    for (const bad of ["yesterday", "8 May", "Tuesday", "banana", "8 May 2023 and then some", ""]) {
      assert.throws(() => parseDate(bad, "f › startTime"), (e: unknown) => e instanceof RamemError && e.where === "f › startTime", bad);
    }
  });
});

describe("detectFormat", () => {
  it("tells the formats apart by extension and keys", () => {
    assert.equal(detectFormat("x.jsonl", "{}"), "native");
    assert.equal(detectFormat("x.json", '{ "namespace": "a", "sessions": ['), "native");
    assert.equal(detectFormat("x.json", '[{"qa": [{"question": "q"'), "locomo");
    assert.equal(detectFormat("x.json", '[{"question_id": "e47becba", "question_type"'), "longmemeval");
    assert.throws(() => detectFormat("x.json", '{"foo": 1}'), (e: unknown) => e instanceof RamemError && e.code === "UNKNOWN_FORMAT");
  });

  it("names the missing file", async () => {
    await assert.rejects(readConversationFile(join(dir, "nope.json")), (e: unknown) => e instanceof RamemError && e.code === "FILE_NOT_FOUND" && /nope\.json$/.test(e.where ?? ""));
  });
});
