import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashEmbedder } from "../../providers/hash-embedder.js";
import { createRuleAnchorer } from "../../anchoring/rule-anchorer.js";
import { runEpisodesBench } from "./run-episodes.js";
import { episodesTable } from "../report/episodes-report.js";

// Eight sessions of one conversation, each on its own subject with its own words: joined pieces have sharp boundaries.
const SUBJECTS = [
  ["garden", "tomato", "soil", "basil", "compost"],
  ["violin", "concert", "rehearsal", "orchestra", "bow"],
  ["kayak", "river", "paddle", "rapids", "canoe"],
  ["bakery", "sourdough", "oven", "flour", "crust"],
  ["chess", "opening", "knight", "tournament", "bishop"],
  ["marathon", "training", "shoes", "pace", "finish"],
  ["aquarium", "fish", "coral", "tank", "reef"],
  ["pottery", "clay", "wheel", "glaze", "kiln"],
];

function conversation(): unknown {
  const c: Record<string, unknown> = { speaker_a: "Mara", speaker_b: "Teo" };
  SUBJECTS.forEach((words, s) => {
    c[`session_${s + 1}_date_time`] = `10:00 am on ${s + 1} March, 2023`;
    c[`session_${s + 1}`] = Array.from({ length: 10 }, (_, t) => ({
      speaker: t % 2 ? "Teo" : "Mara",
      dia_id: `D${s + 1}:${t + 1}`,
      text: `The ${words[t % 5]} and the ${words[(t + 1) % 5]} were great, and the ${words[(t + 2) % 5]} too.`,
    }));
  });
  return [{ sample_id: "gen", conversation: c, qa: [] }];
}

test("bench episodes: finds the boundaries of joined pieces, keeps single pieces whole, reports the cost beside the anchorer's", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ramem-episodes-"));
  try {
    const data = join(dir, "gen.json");
    writeFileSync(data, JSON.stringify(conversation()));
    const r = await runEpisodesBench({
      dataPath: data,
      cacheDir: join(dir, "cache"),
      embedder: createHashEmbedder(),
      anchorer: createRuleAnchorer(),
      documents: 10,
      settings: [
        { name: "default", settings: {} },
        { name: "never cuts", settings: { depth: 10 } },
      ],
    });
    assert.deepEqual([r.joined, r.single], [10, 10]);
    const [shipped, never] = r.variants;
    assert.ok(shipped!.pk < 0.15, `Pk ${shipped!.pk}`);
    assert.ok(shipped!.boundaryRecall >= 0.8 && shipped!.boundaryPrecision >= 0.8, JSON.stringify(shipped));
    assert.equal(shipped!.singleKeptWhole, 1);
    assert.equal(shipped!.episodesPerSession, 1, "a session on one subject is one episode");
    // A segmenter that never cuts misses every boundary: Pk rises, recall is 0.
    assert.equal(never!.boundaryRecall, 0);
    assert.ok(never!.pk > shipped!.pk);
    assert.equal(r.cost.units, 80);
    assert.ok(r.cost.segmentUnitsPerSecond > 0 && r.cost.anchorUnitsPerSecond > 0);
    assert.match(episodesTable(r), /\| default \| 4 \| 4 \| 0\.25 \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
