import { createHash } from "node:crypto";
import type { Anchorer, AnchorResult } from "./anchorer.js";
import type { MemoryUnit } from "../model/memory-unit.js";
import type { Embedder } from "../providers/embedder.js";
import type { MemoryStore, UnitRecord } from "../store/contract.js";
import { sourceHashOf } from "../store/session-hash.js";
import { carryCorrections } from "./carry-corrections.js";
import { SessionWithTurns, type SessionWithTurnsInput } from "../model/conversation.js";
import { RamemError } from "../model/errors.js";
import { checkArgs, checkFields } from "../model/check-args.js";
import type { ChangeStamp } from "../model/unit-history.js";
import { inheritMetadata } from "./inherit-metadata.js";
import { EPISODE_SEGMENTER_ID, segmentEpisodes } from "./segment-episodes.js";

export interface IngestProgress {
  sessionsDone: number;
  sessionsTotal: number;
  turnsDone: number;
  turnsTotal: number;
  unitsWritten: number;
}

export interface IngestReport {
  sessions: number;
  /** Sessions whose input, anchorer and embedder were unchanged: nothing rewritten. */
  sessionsUnchanged: number;
  /** Turns of every session given, unchanged ones included. */
  turns: number;
  /** Turns of the sessions anchored and written (not of the unchanged ones): what an ingest counter adds. */
  turnsWritten: number;
  unitsWritten: number;
  warnings: string[];
  llm: { calls: number; promptTokens: number; completionTokens: number };
  seconds: number;
}

export interface IngestDeps {
  store: MemoryStore;
  embedder: Embedder;
  anchorer: Anchorer;
}

/**
 * Stage 1 as a pipeline: anchor each session, embed its units, cut it into
 * episodes (segment-episodes.ts: the segmenter reads the embeddings), write
 * it in one transaction. A session is the unit of atomicity: a failure leaves the
 * sessions before it stored and nothing of the failing one. Re-ingesting a
 * session with the same content, anchorer and embedder is a no-op; with a
 * change, its units are replaced, never duplicated.
 */
export async function ingestSessions(
  deps: IngestDeps,
  input: readonly SessionWithTurnsInput[],
  options: {
    onProgress?: (p: IngestProgress) => void;
    force?: boolean;
    /** Write only sessions that do not exist yet (SESSION_CHANGED otherwise): append's create path. */
    mustBeNew?: boolean;
    /** Who and when, for the units' history (default: "library", now). */
    change?: ChangeStamp;
    /**
     * Awaited once, right before the first session is written (its anchoring
     * and embedding done); never when every session is unchanged or the
     * first to be written fails before its write. Its failure fails the
     * ingest as that write's would. A bulk load drops the HNSW index here, so
     * an ingest that changes nothing leaves the index as it was.
     */
    beforeFirstWrite?: () => Promise<void>;
  } = {},
): Promise<IngestReport> {
  checkArgs("ingestSessions", { deps: [deps, "object"], input: [input, "array"] });
  checkFields("ingestSessions", "options", options, "object?", { onProgress: "function?", force: "boolean?", mustBeNew: "boolean?", change: "object?", beforeFirstWrite: "function?" });
  const started = performance.now();
  const sessions = input.map((s, i) => validate(s, i));
  await deps.store.bindEmbedder(deps.embedder.id, deps.embedder.dimensions);
  const progress: IngestProgress = {
    sessionsDone: 0,
    sessionsTotal: sessions.length,
    turnsDone: 0,
    turnsTotal: sessions.reduce((n, s) => n + s.turns.length, 0),
    unitsWritten: 0,
  };
  const report: IngestReport = {
    sessions: sessions.length,
    sessionsUnchanged: 0,
    turns: progress.turnsTotal,
    turnsWritten: 0,
    unitsWritten: 0,
    warnings: [],
    llm: { calls: 0, promptTokens: 0, completionTokens: 0 },
    seconds: 0,
  };
  // Pipelined: a session's embedding runs (in an embedder's threads, or on a
  // remote service) while the next sessions are anchored — on this thread, or
  // up to `concurrency` of them at once by an anchorer that takes several (a
  // thread pool) — and sessions are written strictly in input order, each
  // one's warnings reported then. At most max(EMBED_AHEAD, concurrency)
  // sessions wait to be written at a time.
  const concurrency = Math.max(1, Math.floor(deps.anchorer.concurrency ?? 1));
  const lookahead = Math.max(EMBED_AHEAD, concurrency);
  type Prepared = { anchored: AnchorResult; units: MemoryUnit[]; vectors: Promise<Float32Array[]> };
  const ahead: Array<{ s: SessionWithTurns; key: string; write: (() => Promise<number>) | null }> = [];
  const anchoring: Array<Promise<unknown>> = [];
  let writeFailed = false;
  // Once, right before the first replaceSession: after that session's anchoring and embedding
  // succeeded, so a session that fails before its write changes nothing; inside write(), so a
  // failing hook is a failed write (nothing after it is written).
  let beforeFirst: Promise<void> | null = null;
  const beforeFirstWrite = () => (beforeFirst ??= options.beforeFirstWrite?.() ?? Promise.resolve());
  const writeOldest = async () => {
    const next = ahead.shift()!;
    if (next.write) {
      const written = await next.write().catch((err: unknown) => {
        writeFailed = true;
        throw err;
      });
      report.unitsWritten += written;
      report.turnsWritten += next.s.turns.length;
      progress.unitsWritten += written;
    } else report.sessionsUnchanged++;
    progress.sessionsDone++;
    progress.turnsDone += next.s.turns.length;
    options.onProgress?.({ ...progress });
  };
  try {
    for (const s of sessions) {
      const key = `${s.session.namespace}\u0000${s.session.id}`;
      // A session given twice is read back only after its first copy is written, as without the pipeline.
      if (ahead.some((a) => a.key === key)) while (ahead.length > 0) await writeOldest();
      const hash = sessionHash(s, deps);
      const existing = options.force ? null : await deps.store.getSession(s.session.namespace, s.session.id);
      // A forget revises the hash but keeps its source part: the same input again stays skipped, and what was forgotten stays so.
      if (existing && sourceHashOf(existing.contentHash) === hash) {
        ahead.push({ s, key, write: null });
      } else {
        // No more than `concurrency` sessions in the anchorer. Once one has failed, none is started:
        // the sessions before it are written and its error is thrown where its write would be.
        while (anchoring.length >= concurrency) {
          if (await anchoring.shift()!.then(() => false, () => true)) while (ahead.length > 0) await writeOldest();
        }
        // Stored over: the user's corrections stay (the hash stays the input's, so the same input again is skipped).
        const input = existing ? carryCorrections(deps.store, s) : Promise.resolve(s);
        const prepared: Promise<Prepared> = input.then((turnsToAnchor) => deps.anchorer.anchorSession(turnsToAnchor)).then((anchored) => {
          const units = inheritMetadata(anchored.units, s);
          const vectors = embedAll(deps.embedder, units.map((u) => u.content));
          // Awaited by the write; a failure surfaces there, in input order.
          vectors.catch(() => undefined);
          return { anchored, units, vectors };
        });
        prepared.catch(() => undefined);
        anchoring.push(prepared);
        ahead.push({
          s,
          key,
          write: async () => {
            const { anchored, units, vectors } = await prepared;
            report.warnings.push(...anchored.warnings);
            if (anchored.llm) {
              report.llm.calls += anchored.llm.calls;
              report.llm.promptTokens += anchored.llm.promptTokens;
              report.llm.completionTokens += anchored.llm.completionTokens;
            }
            const embeddings = await vectors;
            // The segmenter reads the vectors: a session's episodes are cut when they arrive.
            const records: UnitRecord[] = segmentEpisodes(units, embeddings).map((unit, i) => ({ unit, embedding: embeddings[i]! }));
            await beforeFirstWrite();
            await deps.store.replaceSession(s.session, hash, records, {
              ...(options.mustBeNew ? { expectedHash: null } : {}),
              ...(options.change ? { change: options.change } : {}),
            });
            return records.length;
          },
        });
      }
      while (ahead.length > lookahead) await writeOldest();
    }
  } catch (err) {
    // Reading a session failed: the sessions before it are still written, as
    // they would be one at a time (one of them failing first is the error to
    // report). A failed anchoring, embedding or write stops at once: nothing
    // after a failing session is written.
    if (!writeFailed) while (ahead.length > 0) await writeOldest();
    throw err;
  }
  while (ahead.length > 0) await writeOldest();
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** Sessions anchored ahead of the one being written: enough to keep an embedder's threads busy across session boundaries. */
const EMBED_AHEAD = 3;

export async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += embedder.maxBatchSize) {
    out.push(...(await embedder.embed(texts.slice(i, i + embedder.maxBatchSize))));
  }
  return out;
}

function sessionHash(s: SessionWithTurns, deps: IngestDeps): string {
  return createHash("sha256")
    .update(JSON.stringify(s))
    .update(`\u0000${deps.anchorer.id}\u0000${deps.embedder.id}\u0000${EPISODE_SEGMENTER_ID}`)
    .digest("hex");
}

function validate(s: SessionWithTurnsInput, index: number): SessionWithTurns {
  const parsed = SessionWithTurns.safeParse(s);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new RamemError("BAD_INPUT", issue.message, {
    where: `session ${index + 1}${s?.session?.id ? ` (${s.session.id})` : ""} › ${issue.path.join(" › ")}`,
    hint: "fix this field in the input; nothing of this call was stored",
  });
}

