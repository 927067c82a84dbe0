import { test } from "node:test";
import assert from "node:assert/strict";
import { verbatimText } from "./verbatim-text.js";
import { renderEvidence } from "./render-evidence.js";
import { createRuleAnchorer } from "../anchoring/rule-anchorer.js";

test("the evidence pack shows the speaker's own words with resolved times, not the restatement", async () => {
  const { units } = await createRuleAnchorer().anchorSession({
    session: { id: "s1", namespace: "t", startTime: "2023-05-08T13:56:00.000Z", endTime: "2023-05-08T13:56:00.000Z", participants: [] },
    turns: [{ id: "t1", speaker: "Caroline", text: "I went to my support group yesterday.", attachments: [{ kind: "image", caption: "a rainbow flag" }] }],
  });
  const unit = units[0]!;
  assert.match(unit.content, /^Caroline went to Caroline's support group/);
  assert.deepEqual(unit.source, [{ id: "t1", speaker: "Caroline", text: "I went to my support group yesterday.", attachments: [{ kind: "image", caption: "a rainbow flag" }] }]);
  assert.equal(verbatimText(unit), "Caroline: I went to my support group yesterday (7 May 2023). [shares an image: a rainbow flag]");
  const pack = renderEvidence([unit]).text;
  assert.match(pack, /\(t1\) Caroline: I went to my support group yesterday \(7 May 2023\)\./);
  assert.doesNotMatch(pack, /Caroline's support group/);
  // Units stored before turns were kept verbatim show their restatement.
  assert.equal(verbatimText({ ...unit, source: undefined }), unit.content);
});
