import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BENCH_REPORT_LIMITS, parseBenchReport } from "./web/src/bench-report.js";

/** The viewer's check of a results.json: a malformed file is "not a ramem bench report" with a reason, never a crash later. */
describe("parseBenchReport", () => {
  const metrics = (recall: number) => ({ n: 10, recall, hit: 0.5, mrr: 0.3, mrrAtK: 0.3 });
  const report = (over: Record<string, unknown> = {}, variant: Record<string, unknown> = {}) => ({
    command: "ramem bench locomo --data locomo10.json",
    data: "locomo10.json",
    ks: [5, 10],
    questions: 10,
    variants: [{ name: "ramem", description: "full", retrieval: { overall: { "5": metrics(0.4), "10": metrics(0.6) }, perCategory: { "1": { "10": metrics(0.7) } } }, ...variant }],
    ...over,
  });

  it("reads a well-formed report", () => {
    const r = parseBenchReport(JSON.stringify(report()), "results.json");
    assert.deepEqual(r.ks, [5, 10]);
    assert.equal(r.variants[0]!.overall["10"]!.recall, 0.6);
    assert.equal(r.variants[0]!.perCategory["1"]!["10"]!.recall, 0.7);
    assert.equal(r.questions, 10);
  });

  const overall = (m: unknown) => ({ retrieval: { overall: { "5": metrics(0.4), "10": m } } });
  const cases: Array<[string, string, RegExp]> = [
    ["not JSON", "{ nope", /it is not JSON/],
    ["1e400 (Infinity) as a recall", JSON.stringify(report()).replace('"recall":0.6', '"recall":1e400'), /"recall" is not a number from 0 to 1 \(got Infinity\)/],
    ["1e400 as questions", JSON.stringify(report()).replace('"questions":10', '"questions":1e400'), /"questions" is not a whole number/],
    ["1e400 as a K", JSON.stringify(report({ ks: [5, 10] })).replace('"ks":[5,10]', '"ks":[5,1e400]'), /"ks" holds/],
    ["a variant that is null", JSON.stringify(report({ variants: [null] })), /variant 1 is not an object/],
    ["metrics at a K that are null", JSON.stringify(report({}, overall(null))), /no metrics at K=10/],
    ["hit missing (the table reads it)", JSON.stringify(report({}, overall({ n: 1, recall: 0.5, mrr: 0.1 }))), /"hit" is not a number/],
    ["recall as a string", JSON.stringify(report({}, overall({ n: 1, recall: "0.5", hit: 0.5, mrr: 0.1 }))), /"recall" is not a number/],
    ["a category's recall as a string", JSON.stringify(report({}, { retrieval: { overall: { "5": metrics(0.4), "10": metrics(0.6) }, perCategory: { "1": { "10": { ...metrics(0.1), recall: "x" } } } } })), /category "1" at K=10: "recall"/],
    ["a category that is null", JSON.stringify(report({}, { retrieval: { overall: { "5": metrics(0.4), "10": metrics(0.6) }, perCategory: { "1": null } } })), /category "1" is not an object/],
    ["perCategory a string", JSON.stringify(report({}, { retrieval: { overall: { "5": metrics(0.4), "10": metrics(0.6) }, perCategory: "x" } })), /perCategory is not an object/],
    ["tokensAtK with text", JSON.stringify(report({}, { tokensAtK: { "10": "many" } })), /tokensAtK/],
    ["a recall above 1", JSON.stringify(report({}, overall(metrics(1.5)))), /from 0 to 1 \(got 1.5\)/],
    ["too many Ks", JSON.stringify(report({ ks: Array.from({ length: BENCH_REPORT_LIMITS.ks + 1 }, (_, i) => i + 1) })), /"ks" is not a list of 1 to 100/],
    ["a K of a billion", JSON.stringify(report({ ks: [1e9] })), /"ks" holds/],
    ["too many variants", JSON.stringify(report({ variants: Array.from({ length: 51 }, (_, i) => ({ name: `v${i}`, retrieval: { overall: {} } })) })), /"variants" is not a list of 1 to 50/],
    ["two variants of one name", JSON.stringify(report({ variants: [report().variants[0], report().variants[0]] })), /two variants are named "ramem"/],
    ["a name of 10,000 characters", JSON.stringify(report({}, { name: "x".repeat(10_000) })), /has no name/],
    ["a file over the size limit", " ".repeat(BENCH_REPORT_LIMITS.chars + 1), /characters long/],
  ];
  for (const [name, text, reason] of cases) {
    it(`refuses ${name}, saying why`, () => {
      assert.throws(
        () => parseBenchReport(text, "results.json"),
        (e: unknown) => e instanceof Error && /^results\.json is not a ramem bench report: /.test(e.message) && reason.test(e.message),
      );
    });
  }
});
