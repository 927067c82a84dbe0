import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { RamemError } from "../../model/errors.js";
import { Problem, problemOf, problemResponse, statusOf, validationProblem } from "./problem.js";

describe("problem details", () => {
  it("maps ramem codes to HTTP statuses; any other user error is a 400", () => {
    const cases: Array<[string, number]> = [["UNAUTHORIZED", 401], ["FORBIDDEN", 403], ["NAMESPACE_NOT_FOUND", 404], ["EMBEDDER_MISMATCH", 409], ["PAYLOAD_TOO_LARGE", 413], ["BAD_INPUT", 400], ["SOMETHING_NEW", 400]];
    for (const [code, status] of cases) assert.equal(statusOf(new RamemError(code, "x")), status, code);
  });

  it("carries type, title, status, detail (with where), code, hint and instance, and fits its own schema", () => {
    const p = problemOf(new RamemError("UNIT_NOT_FOUND", "no unit u1", { hint: "list them", where: "ns" }), "/v1/x");
    assert.deepEqual(p, { type: "urn:ramem:problem:unit-not-found", title: "Not Found", status: 404, detail: "ns: no unit u1", code: "UNIT_NOT_FOUND", hint: "list them", instance: "/v1/x" });
    assert.ok(Problem.safeParse(p).success);
  });

  it("names every failing field by its path, and unknown fields by name", () => {
    const schema = z.strictObject({ turns: z.array(z.strictObject({ text: z.string() })), k: z.number() });
    const r = schema.safeParse({ turns: [{ text: 1 }, { text: "ok", mood: "x" }], k: "2", extra: true });
    assert.ok(!r.success);
    const p = validationProblem(r.error.issues, "body", "/v1/y");
    assert.equal(p.status, 400);
    assert.equal(p.code, "VALIDATION_FAILED");
    assert.deepEqual(
      p.errors?.map((e) => e.path),
      ["body.turns[0].text", "body.turns[1]", "body.k", "body"],
    );
    assert.match(p.errors![1]!.message, /unknown field "mood"/);
    assert.match(p.detail, /^body\.turns\[0\]\.text: /);
    assert.match(p.hint ?? "", /4 fields/);
  });

  it("is sent as application/problem+json with its status", async () => {
    const res = problemResponse(problemOf(new RamemError("FORBIDDEN", "no")), { connection: "close" });
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("content-type"), "application/problem+json");
    assert.equal(res.headers.get("connection"), "close");
    assert.equal(((await res.json()) as { code: string }).code, "FORBIDDEN");
  });
});
