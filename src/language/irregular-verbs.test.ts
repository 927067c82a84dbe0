import { test } from "node:test";
import assert from "node:assert/strict";
import { irregularForms } from "./irregular-verbs.js";

test("irregularForms joins the forms of an irregular verb from any of them, in any case, and nothing else", () => {
  assert.deepEqual(irregularForms("ran"), ["run", "ran"]);
  assert.deepEqual(irregularForms("Bought"), ["buy", "bought"]);
  assert.deepEqual(irregularForms("written"), ["write", "wrote", "written"]);
  assert.equal(irregularForms("bake"), null, "a regular verb: the stemmer joins its forms");
  assert.equal(irregularForms("marathon"), null);
});
