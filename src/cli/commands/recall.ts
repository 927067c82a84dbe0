import { Command } from "commander";
import { addStoreOptions, openFromOptions, parsePositiveInt, runAction, type CommonOptions } from "../shared.js";
import { hitToJson, renderFrame, renderHit, renderJudgment } from "../render.js";
import { CONTENT_ONLY } from "../../retrieval/recall-pipeline.js";
import { parseIsoOption } from "../shared.js";
import { requireNamespace } from "../require-namespace.js";
import { parseJson } from "../../formats/shared.js";
import { InvalidArgumentError } from "commander";

function parseScore(value: string): number {
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError(`--min-score must be a number from 0 to 1, got "${value}".`);
  return n;
}
import { cliOut, cliErr } from "../io.js";

interface RecallCliOptions extends CommonOptions {
  k: number;
  questionDate?: string;
  validAt?: string;
  contentOnly?: boolean;
  llmFrame?: boolean;
  filter?: string;
  minScore?: number;
}

export function recallCommand(): Command {
  return addStoreOptions(
    new Command("recall")
      .description("Recall the memory units that best answer a query, each with its episodic context and why it was chosen.")
      .argument("<query>", "question or topic, e.g. \"When did Caroline go to the support group?\"")
      .option("--namespace <ns>", "namespace to search", "default")
      .option("-k, --k <n>", "how many units to return", parsePositiveInt("--k"), 10)
      .option("--question-date <iso>", "when the question is asked (grounds \"last year\", \"two weeks ago\")")
      .option("--valid-at <iso>", "the instant whose state you want: statements valid then first, superseded or later ones last")
      .option("--content-only", "skip the recall frame: plain content ranking (the baseline)")
      .option("--filter <json>", 'only units matching this filter, e.g. \'{"metadata.project": "apollo"}\' (see README › Filters)')
      .option("--min-score <s>", "drop hits scoring below this (0 to 1)", parseScore)
      .option("--llm-frame", "let the configured LLM ground what the rules could not (one call; needs RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL)"),
  ).action(async (query: string, opts: RecallCliOptions) =>
    runAction(opts.json, async () => {
      const questionDate = opts.questionDate ? parseIsoOption("--question-date", opts.questionDate) : undefined;
      const validAt = opts.validAt ? parseIsoOption("--valid-at", opts.validAt) : undefined;
      const memory = await openFromOptions(opts, { mustExist: true });
      try {
        await requireNamespace(memory, opts.namespace ?? memory.defaultNamespace);
        const { hits, frame, frameRefinement, holdsEvidence } = await memory.recall(query, {
          k: opts.k,
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
          ...(questionDate ? { questionDate } : {}),
          ...(validAt ? { validAt } : {}),
          ...(opts.contentOnly ? { switches: CONTENT_ONLY } : {}),
          ...(opts.llmFrame ? { llmFrame: true } : {}),
          ...(opts.filter ? { filter: parseJson(opts.filter, "--filter") as Record<string, unknown> } : {}),
          ...(opts.minScore !== undefined ? { minScore: opts.minScore } : {}),
        });
        if (frameRefinement?.warning) cliErr(`warning: ${frameRefinement.warning}\n`);
        if (opts.json) {
          cliOut(`${JSON.stringify({ query, namespace: opts.namespace, k: opts.k, frame, ...(frameRefinement ? { frameRefinement } : {}), holdsEvidence, hits: hits.map(hitToJson) })}\n`);
        } else if (hits.length === 0) {
          cliOut(`no memories matched in namespace "${opts.namespace}".\n${renderJudgment(holdsEvidence)}\n`);
        } else {
          if (frame) cliOut(`${renderFrame(frame, hits)}\n`);
          cliOut(`${renderJudgment(holdsEvidence)}\n`);
          cliOut(`${hits.map(renderHit).join("\n")}\n`);
        }
      } finally {
        await memory.close();
      }
    }),
  );
}
