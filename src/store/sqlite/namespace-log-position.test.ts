import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { NamespaceLogPosition } from "./namespace-log-position.js";

test("NamespaceLogPosition: the latest seq per namespace, and the unit count read once per seq", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE vec_log (namespace TEXT, seq INTEGER); CREATE TABLE units (namespace TEXT);");
  const position = new NamespaceLogPosition(db);
  assert.equal(position.latestSeq("a"), 0, "an empty log");
  db.exec("INSERT INTO vec_log VALUES ('a', 1), ('a', 2), ('b', 3); INSERT INTO units VALUES ('a'), ('a'), ('b');");
  assert.deepEqual([position.latestSeq("a"), position.latestSeq("b")], [2, 3]);
  assert.equal(position.unitCount("a", 2), 2);
  // A unit written without a log row is not seen at the same seq (the count is cached), at the next one it is.
  db.exec("INSERT INTO units VALUES ('a')");
  assert.equal(position.unitCount("a", 2), 2);
  assert.equal(position.unitCount("a", 4), 3);
  db.exec("DELETE FROM units WHERE namespace = 'a'");
  assert.equal(position.unitCount("a", 4), 3, "still cached");
  position.forget("a");
  assert.equal(position.unitCount("a", 4), 0, "forgotten: counted again");
  position.forget();
  assert.equal(position.unitCount("b", 3), 1);
  db.close();
});
