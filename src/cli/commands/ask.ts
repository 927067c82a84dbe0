import { Command } from "commander";
import { addStoreOptions, openFromOptions, parseIsoOption, parsePositiveInt, runAction, type CommonOptions } from "../shared.js";
import { hitToJson, renderAnswer, renderFrame } from "../render.js";
import { askMemory } from "../../synthesis/ask.js";
import type { RecallFrame } from "../../model/recall-frame.js";
import { requireNamespace } from "../require-namespace.js";
import { cliOut, cliErr } from "../io.js";

interface AskCliOptions extends CommonOptions {
  k: number;
  maxTokens: number;
  questionDate?: string;
  llmFrame?: boolean;
  abstain: boolean;
}

export const NO_LLM_NOTE = "no LLM configured: set RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL to get an answer";

export function askCommand(): Command {
  return addStoreOptions(
    new Command("ask")
      .description(
        "Answer a question from memory: recall, render the evidence pack (memories with their session, date and event time), and let the LLM answer from it with sources. Without an LLM, prints the evidence pack.",
      )
      .argument("<question>", "e.g. \"When did Caroline go to the support group?\"")
      .option("--namespace <ns>", "namespace to search", "default")
      .option("-k, --k <n>", "how many units to recall", parsePositiveInt("--k"), 10)
      .option("--max-tokens <n>", "token budget of the evidence pack (lowest-ranked memories are dropped to fit)", parsePositiveInt("--max-tokens"), 1500)
      .option("--question-date <iso>", "when the question is asked, e.g. 2023-06-20 (grounds \"last year\", \"two weeks ago\")")
      .option("--llm-frame", "let the LLM also ground the recall frame before recalling (one more call)")
      .option("--no-abstain", "ask the model even when the store likely holds nothing for the question (default: answer \"I don't have that in memory\")"),
  ).action(async (question: string, opts: AskCliOptions) =>
    runAction(opts.json, async () => {
      // Checked inside runAction so a bad date is a user error (exit 2), not a stack trace.
      const questionDate = opts.questionDate ? parseIsoOption("--question-date", opts.questionDate) : undefined;
      const memory = await openFromOptions(opts, { mustExist: true });
      try {
        const namespace = opts.namespace ?? memory.defaultNamespace;
        await requireNamespace(memory, namespace);
        // askMemory needs the hits and the judgment; the frame is kept to show why they were chosen.
        let frame: RecallFrame | null = null;
        const result = await askMemory(
          {
            recall: async (q, o) => {
              const outcome = await memory.recall(q, o);
              frame = outcome.frame;
              return outcome;
            },
            ...(memory.languageModel ? { languageModel: memory.languageModel } : {}),
          },
          question,
          {
            namespace,
            k: opts.k,
            maxTokens: opts.maxTokens,
            abstain: opts.abstain,
            ...(questionDate ? { questionDate } : {}),
            ...(opts.llmFrame ? { llmFrame: true } : {}),
          },
        );

        if (opts.json) {
          cliOut(
            `${JSON.stringify({
              question,
              namespace,
              k: opts.k,
              questionDate: questionDate ?? null,
              frame,
              llmConfigured: result.llmConfigured,
              answer: result.answer,
              abstained: result.abstained,
              holdsEvidence: result.holdsEvidence,
              cited: result.cited,
              evidence: { text: result.evidence.text, tokens: result.evidence.tokens, included: result.evidence.included.length, dropped: result.evidence.dropped },
              hits: result.hits.map(hitToJson),
              ...(result.usage ? { usage: result.usage } : {}),
            })}\n`,
          );
          return;
        }

        if (result.hits.length === 0) cliErr(`no memories matched in namespace "${namespace}".\n`);
        // TypeScript does not see the assignment inside the callback and narrows `frame` to null.
        const shownFrame = frame as RecallFrame | null;
        if (shownFrame && result.hits.length) cliErr(`${renderFrame(shownFrame, result.hits)}\n`);
        if (!result.llmConfigured && !result.abstained) cliErr(`${NO_LLM_NOTE}\n`);
        cliOut(renderAnswer(result));
      } finally {
        await memory.close();
      }
    }),
  );
}
