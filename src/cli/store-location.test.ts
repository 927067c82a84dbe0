import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RamemError } from "../model/errors.js";
import { resolveStoreLocation } from "./store-location.js";

const PG = "postgres://u:p@127.0.0.1:5432/db";

describe("resolveStoreLocation", () => {
  it("defaults to RAMEM_DB, then ./ramem.db", () => {
    assert.equal(resolveStoreLocation({}, {}), "ramem.db");
    assert.equal(resolveStoreLocation({}, { RAMEM_DB: "x.db" }), "x.db");
    assert.equal(resolveStoreLocation({ db: "y.db" }, { RAMEM_DB: "x.db" }), "y.db");
  });

  it("takes --store (or RAMEM_STORE) over RAMEM_DB", () => {
    assert.equal(resolveStoreLocation({ store: PG }, { RAMEM_DB: "x.db" }), PG);
    assert.equal(resolveStoreLocation({}, { RAMEM_STORE: PG, RAMEM_DB: "x.db" }), PG);
    assert.equal(resolveStoreLocation({ store: "file.db" }, {}), "file.db");
    assert.equal(resolveStoreLocation({ store: PG, db: PG }, {}), PG);
  });

  it("refuses --db and a store location that differ, with a hint", () => {
    for (const [opts, env] of [
      [{ store: PG, db: "x.db" }, {}],
      [{ db: "x.db" }, { RAMEM_STORE: PG }],
    ] as const) {
      assert.throws(
        () => resolveStoreLocation(opts, env),
        (e: unknown) => e instanceof RamemError && e.code === "BAD_OPTION" && /--store/.test(e.hint ?? ""),
      );
    }
  });
});
