import { test } from "node:test";
import assert from "node:assert/strict";
import { createRuleAnchorer } from "./rule-anchorer.js";
import type { SessionWithTurns } from "../model/conversation.js";

const session = (turns: SessionWithTurns["turns"]): SessionWithTurns => ({
  session: { id: "s1", namespace: "t", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: [] },
  turns,
});

test("rule anchorer: first person becomes the speaker's name, but never a role word", async () => {
  const { units } = await createRuleAnchorer().anchorSession(
    session([
      { id: "t1", speaker: "Caroline", text: "I went to my support group yesterday." },
      { id: "t2", speaker: "user", role: "user", text: "I've had my Fitbit for nine months." },
      { id: "t3", speaker: "assistant", text: "I'd suggest checking my earlier list." },
    ]),
  );
  assert.match(units[0]!.content, /^Caroline went to Caroline's support group yesterday \(7 May 2023\)\.$/);
  assert.equal(units[1]!.content, "user: I've had my Fitbit for nine months.");
  assert.equal(units[2]!.content, "assistant: I'd suggest checking my earlier list.");
});

test("rule anchorer: the role is a coordinate of the unit; people have none", async () => {
  const { units } = await createRuleAnchorer().anchorSession(
    session([
      { id: "t1", speaker: "Caroline", text: "Hi!" },
      { id: "t2", speaker: "user", role: "user", text: "Hello." },
      { id: "t3", speaker: "Bot", role: "assistant", text: "Hello, how can I help?" },
    ]),
  );
  assert.deepEqual(units.map((u) => u.context.role), [null, "user", "assistant"]);
  // A named assistant keeps its name: "I" is rewritten to the name, not the role.
  assert.match(units[2]!.content, /^Bot: Hello, how can I help\?$/);
});

test("rule anchorer: a plan is marked planned and its time grounds forward; a report and an assistant's promise are not plans", async () => {
  const { units } = await createRuleAnchorer().anchorSession({
    ...session([
      { id: "t1", speaker: "Mel", text: "I'm going back to Tokyo in May!" },
      { id: "t2", speaker: "Mel", text: "I went to Tokyo in May." },
      { id: "t3", speaker: "Bot", role: "assistant", text: "I'll look up flights for May." },
    ]),
    session: { id: "s1", namespace: "t", startTime: "2023-03-10T12:00:00.000Z", endTime: "2023-03-10T12:00:00.000Z", participants: [] },
  });
  assert.deepEqual(units.map((u) => u.context.planned ?? false), [true, false, false]);
  assert.deepEqual(units.slice(0, 2).map((u) => u.context.eventTime?.start.slice(0, 7)), ["2023-05", "2022-05"]);
  assert.match(units[0]!.content, /Tokyo in May \(May 2023\)/);
});
