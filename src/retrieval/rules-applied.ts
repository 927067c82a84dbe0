import type { RecallHit } from "../model/recall.js";

/**
 * What reordered a recall beyond its frame's conditions, read back from the
 * hits' reasons (the words the steps of reinstate.ts write), for a face's
 * one-line summary of the frame. The state rules run on the frame's
 * currentState / stateSlot cues and on validAt whether or not the frame is
 * active, so an inactive frame can still have ranked the current value
 * first; only what left a reason on a returned hit is reported:
 *
 *   states-first.ts    "states the <slot> valid now|then" → current value first (slot <slot>)
 *   same-key-order.ts  "states the <thing> last (…)|valid on <date>" → newest value first (<thing>)
 *   newest-rival-…     "the newest of <n> memories that match the question alike (…)" → newest of the memories that match alike first
 *   moved-time-first   "the latest move of the time asked (…)" → latest move of a set time first
 *   validity-order.ts  "superseded … by …", "not yet valid on …" → superseded ones after their successor (or last)
 *   successor-lift.ts  "supersedes <id>" → successors lifted
 *   time-asked-boost   "carries a time, as the query asks when" → timed units lifted (asks when);
 *                      "states a duration, as the query asks how long" → units stating a duration lifted (asks how long)
 *   place-asked-boost  "names a place, as the query asks where" → units naming a place lifted (asks where)
 *   quantity-asked-…   "states a number, as the query asks how much" → units stating a number lifted (asks how much)
 *   spread-over-…      "spread: …" → spread over episodes
 */
export interface RulesApplied {
  /** The state rules, most telling first; empty when none touched a hit. */
  state: string[];
  /** The frame's cues that are no condition (asksFor, aggregates), when they moved a hit. */
  cues: string[];
}

/** The answer-kind steps' reasons and the cue each reports, in the order the cues are listed. */
const ANSWER_KIND_CUES: ReadonlyArray<readonly [string, string]> = [
  ["carries a time, as the query asks when", "timed units lifted (asks when)"],
  ["states a duration, as the query asks how long", "units stating a duration lifted (asks how long)"],
  ["names a place, as the query asks where", "units naming a place lifted (asks where)"],
  ["states a number, as the query asks how much", "units stating a number lifted (asks how much)"],
];

export function rulesApplied(hits: readonly Pick<RecallHit, "reasons">[]): RulesApplied {
  const now = new Set<string>();
  const then = new Set<string>();
  const newest = new Set<string>();
  const on = new Set<string>();
  let rival = false;
  let moved = false;
  let superseded = false;
  let notYet = false;
  let lifted = false;
  const answerKinds = new Set<string>();
  let spread = false;
  for (const hit of hits) {
    for (const reason of hit.reasons) {
      if (!reason.startsWith("context: ")) continue;
      // The answer-kind reasons hold the ", " the items are joined with: matched in the whole reason.
      for (const [said, cue] of ANSWER_KIND_CUES) if (reason.includes(said)) answerKinds.add(cue);
      // The steps' reasons are joined with ", "; each is matched whole.
      for (const item of reason.slice("context: ".length).split(", ")) {
        const first = /^states the (.+) valid (now|then)$/.exec(item);
        const sameKey = /^states the (.+) (?:last \(the newest of its values\)|valid on (\d{4}-\d{2}-\d{2}))$/.exec(item);
        if (first) (first[2] === "now" ? now : then).add(first[1]!);
        else if (sameKey) (sameKey[2] ? on : newest).add(sameKey[2] ? `${sameKey[1]} on ${sameKey[2]}` : sameKey[1]!);
        else if (/^the newest of \d+ memories that match the question alike/.test(item)) rival = true;
        else if (/^the latest move of the time asked/.test(item)) moved = true;
        else if (/^superseded( on \d{4}-\d{2}-\d{2})? by \S+/.test(item)) superseded = true;
        else if (/^not yet valid on \d{4}-\d{2}-\d{2}/.test(item)) notYet = true;
        else if (/^supersedes \S+$/.test(item)) lifted = true;
        else if (/^spread: \d+ from its episode already/.test(item)) spread = true;
      }
    }
  }
  const state: string[] = [];
  if (now.size) state.push(`current value first (slot ${[...now].join(" / ")})`);
  if (then.size) state.push(`value valid then first (slot ${[...then].join(" / ")})`);
  if (newest.size) state.push(`newest value first (${[...newest].join(" / ")})`);
  if (on.size) state.push(`value valid then first (${[...on].join(" / ")})`);
  if (rival) state.push("newest of the memories that match alike first");
  if (moved) state.push("latest move of a set time first");
  if (superseded) state.push("superseded ones after their successor (or last)");
  if (notYet) state.push("not yet valid ones last");
  if (lifted) state.push("successors lifted");
  const cues = ANSWER_KIND_CUES.map(([, cue]) => cue).filter((cue) => answerKinds.has(cue));
  if (spread) cues.push("spread over episodes");
  return { state, cues };
}
