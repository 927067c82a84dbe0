import { Command } from "commander";
import { addStoreOptions, openFromOptions, parsePositiveInt, runAction, type CommonOptions } from "../shared.js";
import { hitToJson, renderFrame, renderHit } from "../render.js";
import { CONTENT_ONLY } from "../../retrieval/recall-pipeline.js";
import { parseIsoOption } from "../shared.js";
import { requireNamespace } from "../require-namespace.js";

interface RecallCliOptions extends CommonOptions {
  k: number;
  questionDate?: string;
  contentOnly?: boolean;
  llmFrame?: boolean;
}

export function recallCommand(): Command {
  return addStoreOptions(
    new Command("recall")
      .description("Recall the memory units that best answer a query, each with its episodic context and why it was chosen.")
      .argument("<query>", "question or topic, e.g. \"When did Caroline go to the support group?\"")
      .option("--namespace <ns>", "namespace to search", "default")
      .option("-k, --k <n>", "how many units to return", parsePositiveInt("--k"), 10)
      .option("--question-date <iso>", "when the question is asked (grounds \"last year\", \"two weeks ago\")")
      .option("--content-only", "skip the recall frame: plain content ranking (the baseline)")
      .option("--llm-frame", "let the configured LLM ground what the rules could not (one call; needs RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL)"),
  ).action(async (query: string, opts: RecallCliOptions) =>
    runAction(opts.json, async () => {
      const questionDate = opts.questionDate ? parseIsoOption("--question-date", opts.questionDate) : undefined;
      const memory = await openFromOptions(opts, { mustExist: true });
      try {
        await requireNamespace(memory, opts.namespace ?? memory.defaultNamespace);
        const { hits, frame, frameRefinement } = await memory.recall(query, {
          k: opts.k,
          ...(opts.namespace ? { namespace: opts.namespace } : {}),
          ...(questionDate ? { questionDate } : {}),
          ...(opts.contentOnly ? { switches: CONTENT_ONLY } : {}),
          ...(opts.llmFrame ? { llmFrame: true } : {}),
        });
        if (frameRefinement?.warning) process.stderr.write(`warning: ${frameRefinement.warning}\n`);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ query, namespace: opts.namespace, k: opts.k, frame, ...(frameRefinement ? { frameRefinement } : {}), hits: hits.map(hitToJson) })}\n`);
        } else if (hits.length === 0) {
          process.stdout.write(`no memories matched in namespace "${opts.namespace}".\n`);
        } else {
          if (frame) process.stdout.write(`${renderFrame(frame)}\n`);
          process.stdout.write(`${hits.map(renderHit).join("\n")}\n`);
        }
      } finally {
        await memory.close();
      }
    }),
  );
}
