import { stemmer } from "stemmer";
import type { Episode, MemoryUnit } from "../model/memory-unit.js";
import { lexicalTerms } from "../language/text.js";
import { dedupe } from "./unit-context.js";
import { spokenText } from "../model/spoken-text.js";
import { cosine } from "../providers/vector-math.js";

/** Which segmenter made a unit's episode; part of the ingest hash, so a change re-segments stored sessions. */
export const EPISODE_SEGMENTER_ID = "episodes@1";

/**
 * How many turns on each side of a gap are compared. TextTiling's blocks are
 * a few sentences; a turn is one to a few.
 */
export const COHESION_WINDOW = 4;

/**
 * An episode has at least this many turns: a conversation does not change
 * its subject for one or two turns ("haha, same!"), and each side of a gap
 * needs a window to be compared at all.
 */
export const MIN_EPISODE_TURNS = 4;

/**
 * How deep a drop in cohesion must be to end an episode (TextTiling's depth
 * score: how far the cohesion at a gap lies below the peaks on either side).
 * Measured with `ramem bench episodes` (LoCoMo sessions cut into pieces and
 * joined, so the true boundaries are known; docs/experiments.md › Episodes).
 */
export const BOUNDARY_DEPTH = 0.25;

/** What a cue phrase that opens a turn ("anyway", "by the way", "speaking of") adds to its gap's depth. */
export const CUE_PHRASE_BONUS = 0.15;

/** The share of lexical cohesion in a gap's cohesion; the rest is the dense similarity of the two windows. */
export const LEXICAL_SHARE = 0.5;

/** Every setting of the segmenter, so `ramem bench episodes --sweep` can vary them; the defaults are the constants above. */
export interface SegmentationSettings {
  window: number;
  minTurns: number;
  depth: number;
  cueBonus: number;
  lexicalShare: number;
}

export const DEFAULT_SEGMENTATION: SegmentationSettings = {
  window: COHESION_WINDOW,
  minTurns: MIN_EPISODE_TURNS,
  depth: BOUNDARY_DEPTH,
  cueBonus: CUE_PHRASE_BONUS,
  lexicalShare: LEXICAL_SHARE,
};

/** Phrases that open a new subject when they open a turn. */
const CUE_PHRASE =
  /^\W*(?:anyway|anyways|anyhow|by the way|btw|speaking of|on (?:another|a different|a separate) note|changing (?:the )?subject|to change the subject|moving on|enough about|in other news|other than that|guess what|oh,? (?:and|also|before i forget)|so,? (?:what|how) about|what(?:'s| is) new|how(?:'s| is| are| have)\b.{0,40}\b(?:been|going)\b|long time no (?:see|talk)|it(?:'s| has) been a while)/i;

/**
 * Cuts a session's units (in conversation order) into episodes — topic
 * segments — and returns them with `context.episode` set. A gap between two
 * turns ends an episode when the cohesion across it (word overlap of the
 * turns on each side, and the similarity of their embeddings) drops deeply
 * below the cohesion around it, or drops and a cue phrase opens the next
 * turn; every episode keeps at least MIN_EPISODE_TURNS turns. A session
 * where nothing changes stays one episode.
 *
 * `vectors[i]` is the embedding of `units[i]` (optional: without them the
 * words alone decide). `continues`, for an append, is the episode of the
 * turn before the first of `units`: the first segment extends it unless a
 * boundary is found right at the start.
 */
export function segmentEpisodes(
  units: readonly MemoryUnit[],
  vectors: readonly (Float32Array | undefined)[] = [],
  options: { continues?: Episode; settings?: Partial<SegmentationSettings> } = {},
): MemoryUnit[] {
  if (units.length === 0) return [];
  const settings = { ...DEFAULT_SEGMENTATION, ...options.settings };
  const speakers = new Set(units.flatMap((u) => u.context.participants).flatMap((p) => lexicalTerms(p)));
  const said = units.map(saidIn);
  const bags = said.map((text) => termCounts(text, speakers));
  const cuts = boundaries(said, bags, vectors, settings);
  const segments: Array<{ from: number; to: number }> = [];
  let from = 0;
  for (const cut of [...cuts, units.length]) {
    segments.push({ from, to: cut });
    from = cut;
  }
  return segments.flatMap(({ from, to }, index) => {
    const members = units.slice(from, to);
    const continued = index === 0 ? options.continues : undefined;
    const episode = describeEpisode(members, continued);
    return members.map((u) => ({ ...u, context: { ...u.context, episode } }));
  });
}

/** The gaps (index of the first unit of a new episode) where the session changes subject. */
function boundaries(
  said: readonly string[],
  bags: readonly Map<string, number>[],
  vectors: readonly (Float32Array | undefined)[],
  settings: SegmentationSettings,
): number[] {
  const n = said.length;
  const { window, minTurns, lexicalShare } = settings;
  if (n < 2 * minTurns) return [];
  const dense = vectors.length === n && vectors.every((v) => v !== undefined && v.length > 0);
  // cohesion[g]: across the gap before unit g, for g in 1..n-1.
  const cohesion = new Array<number>(n).fill(0);
  for (let g = 1; g < n; g++) {
    const left = [Math.max(0, g - window), g] as const;
    const right = [g, Math.min(n, g + window)] as const;
    const lexical = cosineOfCounts(sumCounts(bags.slice(...left)), sumCounts(bags.slice(...right)));
    cohesion[g] = dense ? lexicalShare * lexical + (1 - lexicalShare) * cosine(mean(vectors.slice(...left) as Float32Array[]), mean(vectors.slice(...right) as Float32Array[])) : lexical;
  }
  const scored: Array<{ gap: number; score: number }> = [];
  for (let g = minTurns; g <= n - minTurns; g++) {
    const depth = depthAt(cohesion, g);
    const cue = CUE_PHRASE.test(said[g]!) ? settings.cueBonus : 0;
    if (depth > 0 && depth + cue >= settings.depth) scored.push({ gap: g, score: depth + cue });
  }
  // Deepest first; a gap too close to one already taken would leave an episode too short.
  const taken: number[] = [];
  for (const { gap } of scored.sort((a, b) => b.score - a.score || a.gap - b.gap)) {
    if (taken.every((t) => Math.abs(t - gap) >= minTurns)) taken.push(gap);
  }
  return taken.sort((a, b) => a - b);
}

/**
 * The same episodes (ids and boundaries), described again from the units
 * they hold now: after a forget, no episode may keep the place, topic or
 * names of a unit that is gone.
 */
export function redescribeEpisodes(units: readonly MemoryUnit[]): MemoryUnit[] {
  const groups: MemoryUnit[][] = [];
  for (const u of units) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.context.episode?.id === u.context.episode?.id) last.push(u);
    else groups.push([u]);
  }
  return groups.flatMap((members) => {
    const id = members[0]!.context.episode?.id;
    if (id === undefined) return members;
    const episode = { ...describeEpisode(members, undefined), id };
    return members.map((u) => ({ ...u, context: { ...u.context, episode } }));
  });
}

/** TextTiling's depth: how far the cohesion at a gap lies below the highest point reached climbing to each side. */
function depthAt(cohesion: readonly number[], g: number): number {
  let left = cohesion[g]!;
  for (let i = g - 1; i >= 1 && cohesion[i]! >= left; i--) left = cohesion[i]!;
  let right = cohesion[g]!;
  for (let i = g + 1; i < cohesion.length && cohesion[i]! >= right; i++) right = cohesion[i]!;
  return left - cohesion[g]! + (right - cohesion[g]!);
}

function describeEpisode(members: readonly MemoryUnit[], continued: Episode | undefined): Episode {
  const first = members[0]!.provenance.turnIds[0]!;
  const lastUnit = members[members.length - 1]!;
  const last = lastUnit.provenance.turnIds[lastUnit.provenance.turnIds.length - 1]!;
  const places = members.map((u) => u.context.location).filter((p): p is string => p !== null);
  const place = mostFrequent(continued?.place ? [continued.place, ...places] : places);
  const topic = mostFrequent([...(continued?.topic ? [continued.topic] : []), ...members.map((u) => u.context.topic).filter((t): t is string => t !== null)]);
  const placeNames = new Set([...places, ...(continued?.place ? [continued.place] : [])].map((p) => p.toLowerCase()));
  // Names start with a capital; the topic phrases among the entities are lower case.
  const named = members.flatMap((u) => u.context.entities).filter((e) => /^\p{Lu}/u.test(e) && !placeNames.has(e.toLowerCase()));
  const speakers = members.map((u) => u.context.participants[0]).filter((p): p is string => p !== undefined);
  return {
    id: continued?.id ?? `${members[0]!.provenance.sessionId}#${first}`,
    firstTurnId: continued?.firstTurnId ?? first,
    lastTurnId: last,
    place,
    topic,
    participants: dedupe([...(continued?.participants ?? []), ...speakers, ...named]),
  };
}

/** The value said most often; the first said on a tie. */
function mostFrequent(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, c] of counts) if (best === null || c > counts.get(best)!) best = v;
  return best;
}

/** What was said (not the restatement, which opens with the speaker's name and would tie every turn of theirs together). */
function saidIn(unit: MemoryUnit): string {
  return unit.source && unit.source.length > 0 ? spokenText(unit) : unit.content.replace(/^[^:]{1,60}:\s*/, "");
}

function termCounts(text: string, leaveOut: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of lexicalTerms(text)) {
    if (leaveOut.has(t)) continue;
    const stem = stemmer(t);
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
  return counts;
}

function sumCounts(bags: readonly Map<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const bag of bags) for (const [t, c] of bag) out.set(t, (out.get(t) ?? 0) + c);
  return out;
}

function cosineOfCounts(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  for (const [t, c] of a) dot += c * (b.get(t) ?? 0);
  if (dot === 0) return 0;
  const norm = (m: ReadonlyMap<string, number>) => Math.sqrt([...m.values()].reduce((s, c) => s + c * c, 0));
  return dot / (norm(a) * norm(b));
}

function mean(vectors: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]!;
  return out;
}
