/**
 * The served OpenAPI document passes a real OpenAPI 3.1 validator (the
 * JSON Schema of the specification, via @seriousme/openapi-schema-validator),
 * not only our own assertions about it: clients generate code from it, and a
 * generator that validates first refuses the whole document over one wrong
 * field (a path parameter with `required: false` did exactly that).
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestServer, type TestServer } from "../testing/server-fixture.js";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

describe("GET /openapi.json", () => {
  let t: TestServer;
  let doc: { openapi: string; paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  before(async () => {
    t = await startTestServer();
    const r = await t.call("GET", "/openapi.json");
    assert.equal(r.status, 200);
    doc = r.body;
  });
  after(() => t.stop());

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    // The validator may annotate what it is given: a copy keeps `doc` as served.
    const result = await validator.validate(structuredClone(doc));
    assert.equal(validator.version, "3.1");
    assert.ok(result.valid, `the validator's errors:\n${JSON.stringify(result.errors, null, 2)}`);
  });

  it("marks every path parameter required, and documents each {placeholder} of its path", () => {
    // The validator's schema checks `required: true` only where it is present; here a
    // parameter left out of a path's list, or one without `required`, fails too.
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      const placeholders = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
      for (const [method, operation] of Object.entries(operations)) {
        const inPath = (operation.parameters ?? []).filter((p) => p.in === "path");
        assert.deepEqual(inPath.map((p) => p.name).sort(), placeholders, `${method.toUpperCase()} ${path}: its path parameters`);
        for (const p of inPath) {
          assert.equal(p.required, true, `${method.toUpperCase()} ${path}: path parameter "${p.name}" is required`);
          checked++;
        }
      }
    }
    assert.ok(doc.paths["/v1/bench-results/{id}"], "the document has /v1/bench-results/{id}");
    assert.ok(checked > 20, `checked ${checked} path parameters`);
  });

  it("documents GET memories' cursor paging: the cursor query parameter and nextCursor in MemoryList", () => {
    const list = doc.paths["/v1/namespaces/{ns}/memories"]!.get!;
    const cursor = (list.parameters ?? []).find((p) => p.name === "cursor");
    assert.equal(cursor?.in, "query");
    assert.notEqual(cursor?.required, true);
    const memoryList = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } }).components.schemas.MemoryList!;
    assert.ok("nextCursor" in memoryList.properties);
    assert.ok(memoryList.required?.includes("nextCursor"));
  });

  it("documents a validity as the faces return it: the rules' link and the related later statements", () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { anyOf?: Array<{ properties?: Record<string, unknown> }>; properties?: Record<string, unknown> }> }> } }).components.schemas;
    const validity = schemas.Validity!.properties.validity!;
    const fields = validity.properties ?? validity.anyOf?.find((x) => x.properties)?.properties ?? {};
    for (const field of ["states", "validFrom", "validTo", "supersededBy", "origin", "link", "relatedLater"]) assert.ok(field in fields, field);
  });
});
