import { existsSync, readFileSync } from "node:fs";
import type { Anchorer } from "../../anchoring/anchorer.js";
import type { Embedder } from "../../providers/embedder.js";
import { RamemError } from "../../model/errors.js";
import { runRecall } from "../../retrieval/recall-pipeline.js";
import { prepareBench, sourceOptions, type PrepareOptions } from "../prepare-bench.js";
import { recallSettings, resolveVariants } from "../variants.js";
import type { BenchProgress } from "../bench-progress.js";
import { mean } from "../metrics/internal.js";

/** A group of data files reported together, e.g. the "tuned" files and the "held-back" file. */
export interface StatesDataPart {
  name: string;
  files: string[];
}

export interface StatesBenchOptions {
  /** One data file: the single part "data". Ignored when `parts` is given. */
  dataPath?: string;
  /** Several files in named parts; each file is prepared (ingested, cached) on its own. */
  parts?: StatesDataPart[];
  variants: string[];
  cacheDir: string;
  embedder: Embedder;
  anchorer: Anchorer;
  k?: number;
  onProgress?: BenchProgress;
  workers?: number;
  providerNames?: PrepareOptions["providerNames"];
}

/** Dependent questions: does the pack flag the fact that hung on a superseded state, and only that one? */
export interface DependentFlags {
  /** outdated:true questions, and the share whose first evidence hit carries `mayBeOutdated` (evidence not in the top k: not flagged). */
  outdated: number;
  flagged: number;
  /** outdated:false questions, and the share whose first evidence hit carries it all the same. */
  notOutdated: number;
  falseFlags: number;
}

export interface StatesKindSummary {
  n: number;
  /** Share of questions whose rank-1 memory covers a valid evidence turn. */
  validAt1: number;
  /** Share whose best stale memory (a superseded state, another occurrence) ranks above the best valid one. */
  staleFirst: number;
  /** Share with a valid evidence turn in the top k. */
  validAtK: number;
  /** Only on the "dependent" kind. */
  dependent?: DependentFlags;
}

export interface StatesVariantSummary {
  name: string;
  overall: StatesKindSummary;
  perKind: Record<string, StatesKindSummary>;
}

export interface StatesRankRow {
  questionId: string;
  kind: string;
  question: string;
  /** The data file and the part it belongs to. */
  file: string;
  part: string;
  /** Dependent questions: whether the fact is outdated by a later change (the `outdated` field). */
  outdated?: boolean;
  /** Dependent questions: the turns that changed the state the fact depends on (`superseded_by`). */
  supersededBy?: string[];
  /** valid / stale: rank of the first valid and of the first stale memory (null: not in the top k); flagged: whether the first valid one carries mayBeOutdated (dependent questions; null when none is in the top k). */
  variants: Record<string, { valid: number | null; stale: number | null; flagged?: boolean | null }>;
}

export interface StatesBenchResult {
  /** The data files, comma-separated. */
  data: string;
  k: number;
  questions: number;
  /** Over every file of every part. */
  variants: StatesVariantSummary[];
  /** The same per part, each part's files on their own. */
  parts: Array<{ name: string; files: string[]; questions: number; variants: StatesVariantSummary[] }>;
  /** Per question and variant: rank of the first valid and of the first stale memory (null: not in the top k). */
  ranks: StatesRankRow[];
}

/** What the state set says about a question beyond the LoCoMo fields, read from the file itself. */
interface StateFields {
  kind?: string;
  staleEvidence: string[];
  outdated?: boolean;
  supersededBy: string[];
}

/** Question id (as the LoCoMo reader makes it: `<sample_id>:q<n>`) → the set's own fields. */
function readStateFields(file: string): Map<string, StateFields> {
  const json = JSON.parse(readFileSync(file, "utf8")) as unknown;
  const out = new Map<string, StateFields>();
  if (!Array.isArray(json)) return out;
  for (const sample of json as Array<Record<string, unknown>>) {
    if (typeof sample?.sample_id !== "string" || !Array.isArray(sample.qa)) continue;
    (sample.qa as Array<Record<string, unknown>>).forEach((q, i) => {
      if (q === null || typeof q !== "object") return;
      const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
      const where = `${file} › ${sample.sample_id as string} › qa ${i + 1}`;
      if (q.kind === "dependent" && typeof q.outdated !== "boolean") {
        throw new RamemError("BAD_INPUT", `a dependent question needs "outdated": true or false, got ${JSON.stringify(q.outdated) ?? "nothing"}`, {
          where: `${where} › outdated`,
          hint: 'say whether a later change makes the fact outdated: "outdated": true, "superseded_by": ["D4:2"]',
        });
      }
      out.set(`${sample.sample_id as string}:q${i + 1}`, {
        ...(typeof q.kind === "string" ? { kind: q.kind } : {}),
        staleEvidence: ids(q.stale_evidence),
        ...(typeof q.outdated === "boolean" ? { outdated: q.outdated } : {}),
        supersededBy: ids(q.superseded_by),
      });
    });
  }
  return out;
}

/**
 * The state/sequence set (datasets/ramem-states, LoCoMo format with
 * `kind` and `stale_evidence` per question): does the currently valid state,
 * the state valid then, or the asked-for occurrence rank first — above the
 * superseded statements and the other occurrences that share its words? For
 * "dependent" questions (a fact that hung on a state, `outdated` and
 * `superseded_by`), also whether the evidence hit is flagged mayBeOutdated
 * exactly when a later change made it so.
 */
export async function runStatesBench(options: StatesBenchOptions): Promise<StatesBenchResult> {
  const k = options.k ?? 10;
  const variants = resolveVariants(options.variants);
  const parts = options.parts ?? (options.dataPath !== undefined ? [{ name: "data", files: [options.dataPath] }] : []);
  const files = parts.flatMap((p) => p.files);
  if (files.length === 0) throw new RamemError("BAD_OPTION", "no data file for the states bench", { hint: "pass --data <file>[,<file>…]" });
  for (const f of files) {
    if (!existsSync(f)) throw new RamemError("BAD_OPTION", `data file not found: ${f}`, { hint: "check the path, or leave the file out of --data / --heldback" });
  }
  const ranks: StatesRankRow[] = [];
  for (const part of parts) {
    for (const file of part.files) {
      const fields = readStateFields(file);
      const prepared = await prepareBench({ ...sourceOptions({ ...options, dataPath: file }), format: "locomo" });
      try {
        const questions = prepared.questions.flatMap((q) => {
          const f = fields.get(q.id);
          const kind = q.validity?.kind ?? (f?.kind === "dependent" ? "dependent" : undefined);
          return kind === undefined ? [] : [{ q, kind, f }];
        });
        for (const [i, { q, kind, f }] of questions.entries()) {
          const row: StatesRankRow = { questionId: q.id, kind, question: q.question, file, part: part.name, variants: {} };
          if (kind === "dependent") {
            row.outdated = f!.outdated!;
            const turns = prepared.sessionOfTurn.get(q.namespace);
            row.supersededBy = f!.supersededBy.filter((t) => turns?.has(t) ?? false);
          }
          const stale = q.validity?.staleEvidence ?? f?.staleEvidence.filter((t) => prepared.sessionOfTurn.get(q.namespace)?.has(t) ?? false) ?? [];
          for (const v of variants) {
            const { hits } = await runRecall(prepared.memory, {
              namespace: q.namespace,
              query: q.question,
              k,
              ...recallSettings(v),
              queryVector: prepared.queryVectors.get(q.question)!,
            });
            const firstAt = (ids: readonly string[]) => hits.findIndex((h) => h.unit.provenance.turnIds.some((t) => ids.includes(t)));
            const valid = firstAt(q.evidence);
            const staleAt = firstAt(stale);
            row.variants[v.name] = {
              valid: valid < 0 ? null : valid + 1,
              stale: staleAt < 0 ? null : staleAt + 1,
              ...(kind === "dependent" ? { flagged: valid < 0 ? null : hits[valid]!.unit.mayBeOutdated !== undefined } : {}),
            };
          }
          ranks.push(row);
          options.onProgress?.(i + 1, questions.length, `recalled (${file})`, "questions");
        }
      } finally {
        await prepared.memory.close();
      }
    }
  }
  const summarizeVariants = (rows: StatesRankRow[]): StatesVariantSummary[] => {
    const kinds = [...new Set(rows.map((r) => r.kind))].sort();
    return variants.map((v) => ({
      name: v.name,
      overall: summarizeStates(rows, v.name),
      perKind: Object.fromEntries(kinds.map((kind) => [kind, summarizeStates(rows.filter((r) => r.kind === kind), v.name)])),
    }));
  };
  return {
    data: files.join(","),
    k,
    questions: ranks.length,
    variants: summarizeVariants(ranks),
    parts: parts.map((p) => {
      const rows = ranks.filter((r) => r.part === p.name && p.files.includes(r.file));
      return { name: p.name, files: p.files, questions: rows.length, variants: summarizeVariants(rows) };
    }),
    ranks,
  };
}

/**
 * One variant's figures over some rank rows. valid@1 of a dependent question
 * is its evidence at rank 1, as for every other kind; the flag shares are
 * added when every row is a dependent question.
 */
export function summarizeStates(rows: readonly StatesRankRow[], variant: string): StatesKindSummary {
  const r = rows.map((x) => x.variants[variant]!);
  const out: StatesKindSummary = {
    n: r.length,
    validAt1: mean(r.map((x) => (x.valid === 1 ? 1 : 0))),
    staleFirst: mean(r.map((x) => (x.stale !== null && (x.valid === null || x.stale < x.valid) ? 1 : 0))),
    validAtK: mean(r.map((x) => (x.valid !== null ? 1 : 0))),
  };
  if (rows.length > 0 && rows.every((x) => x.kind === "dependent")) {
    const flaggedShare = (outdated: boolean) => {
      const these = rows.filter((x) => x.outdated === outdated).map((x) => (x.variants[variant]!.flagged === true ? 1 : 0));
      return { n: these.length, share: mean(these) };
    };
    const yes = flaggedShare(true);
    const no = flaggedShare(false);
    out.dependent = { outdated: yes.n, flagged: yes.share, notOutdated: no.n, falseFlags: no.share };
  }
  return out;
}
