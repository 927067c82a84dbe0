import { loadavg } from "node:os";
import type { Anchorer } from "../../anchoring/anchorer.js";
import type { Embedder } from "../../providers/embedder.js";
import type { MemoryUnit } from "../../model/memory-unit.js";
import { DEFAULT_SEGMENTATION, segmentEpisodes, type SegmentationSettings } from "../../anchoring/segment-episodes.js";
import { seededRandom } from "../../util/seeded-random.js";
import { prepareBench, sourceOptions, type PrepareOptions } from "../prepare-bench.js";
import type { BenchProgress } from "../bench-progress.js";

export interface EpisodesBenchOptions {
  dataPath: string;
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  /** Joined documents per conversation (default 30) and single-piece documents (default 30). */
  documents?: number;
  seed?: number;
  /** Settings to compare; default the shipped one alone. */
  settings?: Array<{ name: string; settings: Partial<SegmentationSettings> }>;
  onProgress?: BenchProgress;
  /** Ingest into this store (a postgres:// URL or a SQLite file) instead of the cache file. */
  store?: string;
  workers?: number;
  providerNames?: PrepareOptions["providerNames"];
}

export interface EpisodesSummary {
  name: string;
  settings: SegmentationSettings;
  /** Beeferman's Pk on the joined documents: the chance that two turns k apart are wrongly put in one or two episodes (lower is better). */
  pk: number;
  /** Found boundaries within one turn of a true one, and true ones found within one turn. */
  boundaryPrecision: number;
  boundaryRecall: number;
  /** Share of single-piece documents (one stretch of one session) left as one episode. */
  singleKeptWhole: number;
  /** Mean episodes per stored session of the data set, as ingest would cut them. */
  episodesPerSession: number;
}

export interface EpisodesCost {
  units: number;
  /** Units per second: segmenting every stored session, and the rule anchorer anchoring the same sessions, in one run, interleaved per session. */
  segmentUnitsPerSecond: number;
  anchorUnitsPerSecond: number;
  /** What segmentation adds to the anchorer's time (segment time / anchor time). */
  shareOfAnchoring: number;
  loadAverage: number;
}

export interface EpisodesBenchResult {
  data: string;
  joined: number;
  single: number;
  variants: EpisodesSummary[];
  cost: EpisodesCost;
}

/** The lengths of the pieces cut from sessions: a stretch of conversation on one subject, as LoCoMo's sessions run. */
const PIECE_MIN = 6;
const PIECE_MAX = 12;
/** Sessions joined into one document lie at least this many sessions apart, so they are about other things. */
const SESSION_DISTANCE = 3;

/**
 * Episode segmentation against known boundaries. Real conversations carry no
 * topic-segment labels, so — as in the usual evaluation of text
 * segmentation (Choi 2000) — documents are built whose boundaries are known:
 * 2–3 pieces of 6–12 consecutive turns, each from another session of one
 * LoCoMo conversation (the same people, another day and subject), joined.
 * Single pieces measure the other failure, cutting a stretch that does not
 * change subject. The stored units and their embeddings are the real ones.
 */
export async function runEpisodesBench(options: EpisodesBenchOptions): Promise<EpisodesBenchResult> {
  const prepared = await prepareBench({ ...sourceOptions(options), format: "locomo" });
  const store = prepared.memory.store;
  const random = seededRandom(options.seed ?? 7);
  const documents = options.documents ?? 30;
  const pick = (n: number) => Math.floor(random() * n);
  const joined: Array<{ units: MemoryUnit[]; vectors: Float32Array[]; cuts: number[] }> = [];
  const single: Array<{ units: MemoryUnit[]; vectors: Float32Array[] }> = [];
  const sessionsOf: Array<{ units: MemoryUnit[]; vectors: Float32Array[] }> = [];
  const cost = { units: 0, segmentMs: 0, anchorMs: 0 };
  for (const [c, conversation] of prepared.conversations.entries()) {
    const sessions: Array<{ units: MemoryUnit[]; vectors: Float32Array[] }> = [];
    for (const s of conversation.sessions) {
      const units = await store.listUnits(conversation.namespace, { sessionId: s.session.id });
      const embeddings = await store.getUnitEmbeddings(conversation.namespace, units.map((u) => u.id));
      sessions.push({ units, vectors: units.map((u) => embeddings.get(u.id)!) });
      // The cost, interleaved per session so both share the machine's load.
      let started = performance.now();
      await options.anchorer.anchorSession(s);
      cost.anchorMs += performance.now() - started;
      started = performance.now();
      segmentEpisodes(units, sessions[sessions.length - 1]!.vectors);
      cost.segmentMs += performance.now() - started;
      cost.units += units.length;
    }
    sessionsOf.push(...sessions);
    const usable = sessions.filter((s) => s.units.length >= PIECE_MIN);
    if (usable.length < 2 * SESSION_DISTANCE) continue;
    const piece = (s: { units: MemoryUnit[]; vectors: Float32Array[] }) => {
      const length = Math.min(s.units.length, PIECE_MIN + pick(PIECE_MAX - PIECE_MIN + 1));
      const from = pick(s.units.length - length + 1);
      return { units: s.units.slice(from, from + length), vectors: s.vectors.slice(from, from + length) };
    };
    for (let d = 0; d < documents; d++) {
      const count = 2 + pick(2);
      const chosen: number[] = [];
      for (let tries = 0; chosen.length < count && tries < 50; tries++) {
        const i = pick(usable.length);
        if (chosen.every((j) => Math.abs(i - j) >= SESSION_DISTANCE)) chosen.push(i);
      }
      const pieces = chosen.map((i) => piece(usable[i]!));
      const cuts: number[] = [];
      let at = 0;
      for (const p of pieces.slice(0, -1)) cuts.push((at += p.units.length));
      joined.push({ units: pieces.flatMap((p) => p.units), vectors: pieces.flatMap((p) => p.vectors), cuts });
      single.push(piece(usable[pick(usable.length)]!));
    }
    options.onProgress?.(c + 1, prepared.conversations.length, "documents built", "conversations");
  }
  await prepared.memory.close();

  const variants = (options.settings ?? [{ name: "default", settings: {} }]).map(({ name, settings }) => {
    const full = { ...DEFAULT_SEGMENTATION, ...settings };
    const cutsOf = (units: MemoryUnit[], vectors: Float32Array[]) => episodeStarts(segmentEpisodes(units, vectors, { settings: full }));
    let pkSum = 0;
    let found = 0;
    let foundRight = 0;
    let trueTotal = 0;
    let trueFound = 0;
    for (const doc of joined) {
      const cuts = cutsOf(doc.units, doc.vectors);
      pkSum += pk(doc.cuts, cuts, doc.units.length);
      found += cuts.length;
      foundRight += cuts.filter((c) => doc.cuts.some((t) => Math.abs(t - c) <= 1)).length;
      trueTotal += doc.cuts.length;
      trueFound += doc.cuts.filter((t) => cuts.some((c) => Math.abs(t - c) <= 1)).length;
    }
    const kept = single.filter((doc) => cutsOf(doc.units, doc.vectors).length === 0).length;
    const episodes = sessionsOf.reduce((n, s) => n + cutsOf(s.units, s.vectors).length + 1, 0);
    return {
      name,
      settings: full,
      pk: round(pkSum / Math.max(1, joined.length)),
      boundaryPrecision: round(found === 0 ? 0 : foundRight / found),
      boundaryRecall: round(trueTotal === 0 ? 0 : trueFound / trueTotal),
      singleKeptWhole: round(single.length === 0 ? 0 : kept / single.length),
      episodesPerSession: round(episodes / Math.max(1, sessionsOf.length)),
    };
  });
  return {
    data: options.dataPath,
    joined: joined.length,
    single: single.length,
    variants,
    cost: {
      units: cost.units,
      segmentUnitsPerSecond: Math.round(cost.units / (cost.segmentMs / 1000)),
      anchorUnitsPerSecond: Math.round(cost.units / (cost.anchorMs / 1000)),
      shareOfAnchoring: round(cost.segmentMs / cost.anchorMs),
      loadAverage: loadavg()[0]!,
    },
  };
}

/** The positions where a new episode starts (the first unit of each episode but the first). */
function episodeStarts(units: readonly MemoryUnit[]): number[] {
  const starts: number[] = [];
  for (let i = 1; i < units.length; i++) if (units[i]!.context.episode?.id !== units[i - 1]!.context.episode?.id) starts.push(i);
  return starts;
}

/** Beeferman et al.'s Pk with k half the mean true segment length. */
function pk(reference: readonly number[], hypothesis: readonly number[], n: number): number {
  const k = Math.max(1, Math.round(n / (reference.length + 1) / 2));
  const segmentOf = (cuts: readonly number[], i: number) => cuts.filter((c) => c <= i).length;
  let wrong = 0;
  let probes = 0;
  for (let i = 0; i + k < n; i++) {
    const sameRef = segmentOf(reference, i) === segmentOf(reference, i + k);
    const sameHyp = segmentOf(hypothesis, i) === segmentOf(hypothesis, i + k);
    if (sameRef !== sameHyp) wrong++;
    probes++;
  }
  return probes === 0 ? 0 : wrong / probes;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
