/**
 * Would a unit's index keys, expanded with what anchoring already extracted,
 * find more evidence? Copies the bench caches' stores and adds words to each
 * unit's indexed cue (never shown: the cue column of the FTS5 table), then
 * the benches run on the copies (`--cache <to>`), so the shipped code is the
 * same on both sides.
 *
 * Keys (comma-separated):
 *   episode — the place and topic of the unit's episode, where the unit
 *             names neither ("grilled sardines" on the Lisbon trip);
 *   time    — the unit's event time as words: month and year, the weekday
 *             for a day ("May 2023", "Saturday");
 *   session — the session's date as words (month and year): the time a
 *             turn was said, for "what did I do in May";
 *   states  — the attributes of the states the unit states ("job",
 *             "residence", an open attribute's own words).
 *
 *   node --import tsx research/expand-index-keys.ts <from cache dir> <to cache dir> <keys> [file name filter]
 *   npx ramem bench locomo --data ../shared/datasets/locomo/locomo10.json --variants content-only,ramem --cache <to>
 *   npx ramem bench longmemeval --data ../shared/datasets/longmemeval/longmemeval_s_dev100.json --variants content-only,ramem --cache <to>
 */
import Database from "better-sqlite3";
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { MemoryUnit } from "../src/model/memory-unit.js";

const [from, to, keyList, filter = "rule-anchorer_13"] = process.argv.slice(2);
if (!from || !to || !keyList) throw new Error("usage: expand-index-keys.ts <from> <to> <episode,time,session,states> [filter]");
const keys = new Set(keyList.split(","));
mkdirSync(to, { recursive: true });

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function words(unit: MemoryUnit): string {
  const own = `${unit.content} ${unit.cue}`.toLowerCase();
  const add: string[] = [];
  const absent = (w: string | null | undefined) => w && !own.includes(w.toLowerCase());
  const episode = unit.context.episode;
  if (keys.has("episode") && episode) for (const w of [episode.place, episode.topic]) if (absent(w)) add.push(w!);
  const time = unit.context.eventTime;
  if (keys.has("time") && time && ["minute", "day", "week", "month"].includes(time.granularity)) {
    const d = new Date(time.start);
    add.push(`${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
    if (time.granularity === "day" || time.granularity === "minute") add.push(DAYS[d.getUTCDay()]!);
  }
  if (keys.has("session")) {
    const d = new Date(unit.context.session.start);
    add.push(`${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
  }
  if (keys.has("states")) for (const s of unit.context.states ?? []) if (absent(s.slot)) add.push(s.slot.replace(/_/g, " "));
  return add.join(" ");
}

for (const name of readdirSync(from).filter((f) => f.endsWith(".db") && f.includes(filter) && /^(locomo|longmemeval)-/.test(f))) {
  copyFileSync(join(from, name), join(to, name));
  const queries = name.replace(/\.db$/, ".queries.json");
  if (existsSync(join(from, queries))) copyFileSync(join(from, queries), join(to, queries));
  const db = new Database(join(to, name));
  const update = db.prepare("UPDATE fts SET cue = cue || ' ' || ? WHERE rowid = ?");
  let changed = 0;
  db.transaction(() => {
    for (const row of db.prepare("SELECT rowid, body FROM units").all() as Array<{ rowid: number; body: string }>) {
      const extra = words(JSON.parse(row.body) as MemoryUnit);
      if (extra) {
        update.run(extra, row.rowid);
        changed++;
      }
    }
  })();
  db.close();
  console.log(`${name}: ${changed} units given more keys (${[...keys].join(", ")})`);
}
