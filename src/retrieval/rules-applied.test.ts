import { test } from "node:test";
import assert from "node:assert/strict";
import { rulesApplied } from "./rules-applied.js";

test("the state rules a recall applied are read back from its hits' reasons, each once, most telling first", () => {
  const hits = [
    { reasons: ["context: the newest of 3 memories that match the question alike (said 2023-09-10), said by the user", "content: lexical #4"] },
    { reasons: ["context: states the residence valid now, supersedes u_1"] },
    { reasons: ["context: superseded on 2023-02-01 by u_2"] },
    { reasons: ["content: the newest of 3 memories that match the question alike (said 2023-09-10)"] },
    { reasons: ["context: the latest move of the time asked (said 2023-08-08), said by the user, carries a time, as the query asks when"] },
  ];
  assert.deepEqual(rulesApplied(hits), {
    state: ["current value first (slot residence)", "newest of the memories that match alike first", "latest move of a set time first", "superseded ones after their successor (or last)", "successors lifted"],
    cues: ["timed units lifted (asks when)"],
  });
  assert.deepEqual(rulesApplied([{ reasons: ["context: said by the user"] }]), { state: [], cues: [] }, "a condition met is no state rule");
});

test("the answer-kind cues that moved a hit are read back too: a time asked, a place asked, the spread", () => {
  const hits = [
    { reasons: ["context: names a place, as the query asks where, episode s1 +0.100"] },
    { reasons: ["context: carries a time, as the query asks when"] },
    { reasons: ["context: spread: 1 from its episode already −0.020"] },
    { reasons: ["context: states a number, as the query asks how much"] },
    { reasons: ["context: states a duration, as the query asks how long"] },
  ];
  assert.deepEqual(rulesApplied(hits).cues, [
    "timed units lifted (asks when)",
    "units stating a duration lifted (asks how long)",
    "units naming a place lifted (asks where)",
    "units stating a number lifted (asks how much)",
    "spread over episodes",
  ]);
});
