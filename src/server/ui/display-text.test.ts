import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { inertBidi, installInertBidi } from "./web/src/display-text.js";

describe("the inspector shows bidi controls inert", () => {
  it("inertBidi replaces every bidirectional control with a visible placeholder, and nothing else", () => {
    assert.equal(inertBidi("Forget session \u202Eabc"), "Forget session ⟨U+202E⟩abc");
    const controls = ["\u061C", "\u200E", "\u200F", "\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];
    for (const c of controls) assert.doesNotMatch(inertBidi(`a${c}b`), /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/, `U+${c.charCodeAt(0).toString(16)}`);
    assert.equal(inertBidi("a\u2066b\u2069c"), "a⟨U+2066⟩b⟨U+2069⟩c");
    // Right-to-left letters are text, not controls: they stay.
    assert.equal(inertBidi("שלום مرحبا · s1 · 8 May"), "שלום مرحبا · s1 · 8 May");
  });

  it("once installed, every element's text and shown attributes are inert; ids in hrefs and values are not touched", () => {
    // Preact's options object, as the hook sees it (no Preact import: its types bring the DOM's into the Node build).
    const options: { vnode?: (v: never) => void } = {};
    const seen: unknown[] = [];
    options.vnode = ((v: unknown) => seen.push(v)) as (v: never) => void;
    installInertBidi(options);
    const vnode = (type: string | null, props: unknown) => {
      const v = { type, props };
      (options.vnode as (v: unknown) => void)(v);
      return v as { type: string | null; props: Record<string, unknown> };
    };
    const label = vnode("button", { title: "t\u202E1", "aria-label": "Forget session \u202Eevil", value: "s\u202E1", children: ["Forget session ", ["s\u202E1", ["x\u2067y"]], 3] });
    assert.deepEqual(label.props.children, ["Forget session ", ["s⟨U+202E⟩1", ["x⟨U+2067⟩y"]], 3]);
    assert.equal(label.props.title, "t⟨U+202E⟩1");
    assert.equal(label.props["aria-label"], "Forget session ⟨U+202E⟩evil");
    assert.equal(label.props.value, "s\u202E1", "a value goes back to the API as stored");
    const link = vnode("a", { href: "#/ns/u_\u202E1", children: "u_\u202E1" });
    assert.equal(link.props.href, "#/ns/u_\u202E1");
    assert.equal(link.props.children, "u_⟨U+202E⟩1");
    // A text node (a string a component returns) as Preact creates it while diffing.
    const text = vnode(null, "\u202Edone") as unknown as { props: string };
    assert.equal(text.props, "⟨U+202E⟩done");
    assert.equal(seen.length, 3, "the hook installed before keeps running");
  });
});
