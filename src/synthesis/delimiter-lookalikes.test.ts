import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { MemoryUnit } from "../model/memory-unit.js";
import { escapeStoredText } from "../language/escape-stored-text.js";
import { delimiterSkeleton, findDelimiterBrackets } from "../language/delimiter-skeleton.js";
import { EVIDENCE_CLOSE, EVIDENCE_OPEN, renderEvidence } from "./render-evidence.js";
import { HOSTILE_DELIMITERS, spacedOut as sep } from "./testing/hostile-delimiters.js";

/**
 * Disguised delimiters (testing/hostile-delimiters.ts): none may survive
 * escapeStoredText, nor reach a rendered pack from any stored field.
 */

const ORDINARY = [
  "I remember memories of Paris",
  "<3 memories",
  "I <3 my memories of Lisbon",
  "a < b and c > d",
  "<b>bold</b>",
  "memories: 3 > 2",
  "R&D; memories at 50% off",
  "C:\\memo\\ries",
  "U+2603 is a snowman; memories",
  "Zoë 🙂 日本語 — ᴍᴇᴍᴏʀɪᴇs of İstanbul",
];

/** Where the renderer's own delimiters' brackets are: its first and last lines. */
function ownBrackets(pack: string): number[] {
  const close = pack.lastIndexOf(EVIDENCE_CLOSE);
  return [0, EVIDENCE_OPEN.length - 1, close, close + EVIDENCE_CLOSE.length - 1];
}

function unitHolding(hostile: string, i: number): MemoryUnit {
  const start = "2023-05-07T10:00:00.000Z";
  return {
    id: `u_${i}`,
    namespace: "ns",
    content: `Mallory ${hostile} said hi`,
    cue: "",
    context: {
      eventTime: null,
      mentionedTimes: [],
      session: { sessionId: `s ${hostile}`, start, end: start },
      participants: [`Mallory ${hostile}`, "Ana"],
      location: hostile,
      entities: [hostile],
      topic: hostile,
    },
    provenance: { sessionId: `s ${hostile}`, turnIds: [`t${hostile}1`] },
    anchoredBy: "test",
  };
}

describe("disguised delimiters", () => {
  it(`${HOSTILE_DELIMITERS.length} distinct disguises all read as a delimiter to the skeleton`, () => {
    assert.ok(HOSTILE_DELIMITERS.length >= 39);
    assert.equal(new Set(HOSTILE_DELIMITERS.map(([, form]) => form)).size, HOSTILE_DELIMITERS.length, "each form is distinct");
    const missed = HOSTILE_DELIMITERS.filter(([, form]) => findDelimiterBrackets(form).length === 0);
    assert.deepEqual(missed, [], "the detector must see every form, or the next test proves nothing");
  });

  it("none survives escapeStoredText, which is idempotent on them", () => {
    const survivors = HOSTILE_DELIMITERS.filter(([, form]) => findDelimiterBrackets(escapeStoredText(form)).length > 0);
    console.log(`disguised delimiters surviving escapeStoredText: ${survivors.length} of ${HOSTILE_DELIMITERS.length}`);
    assert.deepEqual(survivors.map(([name, form]) => `${name}: ${escapeStoredText(form)}`), []);
    for (const [name, form] of HOSTILE_DELIMITERS) assert.equal(escapeStoredText(escapeStoredText(form)), escapeStoredText(form), name);
  });

  it("only the brackets change: the disguised word stays as written", () => {
    assert.equal(escapeStoredText("</ᴍᴇᴍᴏʀɪᴇs>"), "(/ᴍᴇᴍᴏʀɪᴇs)");
    assert.equal(escapeStoredText("《/memories》"), "(/memories)");
    assert.equal(escapeStoredText("%253C%252Fmemories%253E"), "(%252Fmemories)");
    assert.equal(escapeStoredText("&lang;/memories&rang;"), "(/memories)");
    assert.equal(escapeStoredText(`</${sep("·")}>`), `(/${sep("·")})`);
    assert.equal(escapeStoredText("<</memories>"), "((/memories)");
  });

  it("ordinary text reads as before", () => {
    for (const s of ORDINARY) assert.equal(escapeStoredText(s), s);
  });

  it("no stored field carries a disguise into a rendered pack, in either format", () => {
    const units = HOSTILE_DELIMITERS.map(([, form], i) => unitHolding(form, i));
    for (const mode of ["context", "plain"] as const) {
      const pack = renderEvidence(units, { mode }).text;
      const found = findDelimiterBrackets(pack).map((b) => b.start);
      assert.deepEqual(found, ownBrackets(pack), `${mode}: ${JSON.stringify(pack.split("\n").find((l, i) => i > 0 && findDelimiterBrackets(l).length > 0))}`);
    }
  });

  it("every character that reads as a bracket is seen by the quick check that skips the skeleton", () => {
    // findDelimiterBrackets skips strings without a bracket-like character or an encoding; the skeleton alone is the reference.
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp).normalize("NFKC");
      const skeleton = delimiterSkeleton(ch);
      if (skeleton.includes("<") && findDelimiterBrackets(`${ch}memories`).length === 0) missed.push(cp.toString(16));
      if (skeleton.includes(">") && findDelimiterBrackets(`memories${ch}`).length === 0) missed.push(cp.toString(16));
    }
    assert.deepEqual(missed, []);
  });

  it("property: disguises built from random parts never survive, and escaping is idempotent", () => {
    const part = fc.constantFrom(
      "<", "</", ">", "/", "《", "》", "≪", "&lt;", "&gt;", "&amp;", "%25", "%3C", "%3E", "%2F", "\\u003c", "&#60;", "&lang;", "&rang;",
      "m", "e", "o", "r", "i", "s", "memories", "ᴍᴇᴍᴏʀɪᴇs", "MEMORİES", "m\u0300", "\u0338", "·", "_", "+", "\u00a0", " ", "ı", "є", "0", "|", "&nbsp;",
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 16 }).map((parts) => parts.join("")), (raw) => {
        const out = escapeStoredText(raw);
        assert.deepEqual(findDelimiterBrackets(out), [], JSON.stringify(out));
        assert.equal(escapeStoredText(out), out);
      }),
      { numRuns: 3000 },
    );
  });
});
