import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Memory } from "../../memory.js";
import type { Role } from "../../store/api-key-contract.js";
import { mayAccess, type Principal } from "../auth/principal.js";
import { RamemError } from "../../model/errors.js";
import { parseDate } from "../../formats/shared.js";
import { EMPTY_FRAME } from "../../model/recall-frame.js";
import { renderEvidence } from "../../synthesis/render-evidence.js";
import { escapeStoredText } from "../../language/escape-stored-text.js";
import { rememberTurns } from "./remember-turns.js";
import { askInput, askOutput, forgetInput, forgetOutput, recallInput, recallOutput, rememberInput, rememberOutput, updateInput, updateOutput } from "./tool-schemas.js";
import { actorOf } from "../auth/principal.js";
import { escapedJudgment } from "../../retrieval/judge-evidence.js";
import { describeAnswer, describeFrame, describeReasons, forbidden, frameSummary, recalledMemory, toolError } from "./tool-results.js";
import { echoValue } from "../../model/echo-value.js";
import { packageVersion } from "../../util/package-version.js";

export interface McpServerOptions {
  memory: Memory;
  /** Who is calling; every tool call is checked against it before anything is looked up. */
  principal: Principal;
  /** Clock for turns given without a time (tests pin it). */
  now?: () => Date;
}

export const MCP_SERVER_NAME = "ramem";
export const MCP_SERVER_VERSION = packageVersion();

export const NO_LLM_NOTICE =
  "No LLM is configured on this ramem server, so it returns the evidence instead of an answer (whoever runs it can set RAMEM_LLM_MODEL and RAMEM_LLM_BASE_URL). Answer from the memories below yourself: each carries its session date, turn ids and event time, so check that a memory's episode fits the question before using it.";

const INSTRUCTIONS = `ramem is long-term memory. Call \`remember\` with the turns of a conversation worth keeping (pass the returned sessionId on later calls to add to the same conversation). Call \`recall\` before answering anything that depends on past conversations: it returns memories with their coordinates (session date, event time, participants, source turns) — prefer memories whose episode fits the question. \`ask\` answers a question from memory when the server has an LLM. \`forget\` deletes a memory, a session or a namespace; \`update\` corrects what a memory says. Every call names a namespace.`;

/**
 * The MCP face of a Memory: the tools of MCP_TOOL_NAMES, each checked against the caller's
 * principal first. One server serves one principal; over HTTP a fresh server
 * is made per request for the key that sent it.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { memory, principal } = options;
  const now = options.now ?? (() => new Date());
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { instructions: INSTRUCTIONS });

  /** The access check runs before the body, so a refused call never touches the store. */
  const guarded = async (namespace: string, needs: Role, body: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    if (!mayAccess(principal, namespace, needs)) return forbidden(namespace, needs);
    try {
      return await body();
    } catch (err) {
      return toolError(err);
    }
  };

  server.registerTool(
    "remember",
    {
      title: "Remember conversation turns",
      description:
        "Store conversation turns in long-term memory. Each turn is a speaker, a text and optionally a time. Without sessionId a new session is started and its id returned; pass that id on later calls to append to the same conversation. With replace: true the session holds exactly the given turns (store a whole session). Turn times, session time and relative dates in the text (\"yesterday\") are grounded when stored. Invalid input stores nothing.",
      inputSchema: rememberInput,
      outputSchema: rememberOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }, // replace: true may drop turns
    },
    async (args) =>
      guarded(args.namespace, "write", async () => {
        const outcome = await rememberTurns(memory, { ...args, actor: actorOf(principal) }, now);
        const text =
          `${outcome.mode === "unchanged" ? "Already stored (unchanged)" : `Remembered ${outcome.turnIds.length} turn(s)`} in session ${outcome.sessionId} ` +
          `(${outcome.mode}; namespace ${outcome.namespace}; session ${outcome.sessionStart} – ${outcome.sessionEnd}). ` +
          `Pass sessionId "${outcome.sessionId}" to add more turns to this conversation.`;
        return { content: [{ type: "text", text }], structuredContent: { ...outcome } };
      }),
  );

  server.registerTool(
    "recall",
    {
      title: "Recall memories",
      description:
        "Search long-term memory. Returns the most relevant memories, each with its coordinates: the session (id and date), the event time it mentions, the participants and the source turn ids, plus why it was recalled. The query is read for a time window, people and places (\"What did Ana do in July 2023?\"); memories from that context come first. Give questionDate when the question says \"last year\" or \"two weeks ago\". holdsEvidence says whether the store likely holds anything that answers the query at all: when its likely is false, say you do not know rather than answer from the nearest memory.",
      inputSchema: recallInput,
      outputSchema: recallOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(args.namespace, "read", async () => {
        const questionDate = args.questionDate === undefined ? undefined : parseDate(args.questionDate, "questionDate");
        const validAt = args.validAt === undefined ? undefined : parseDate(args.validAt, "validAt");
        const { hits, frame: induced, holdsEvidence } = await memory.recall(args.query, {
          namespace: args.namespace,
          k: args.k ?? 10,
          ...(questionDate ? { questionDate } : {}),
          ...(validAt ? { validAt } : {}),
          ...(args.filter ? { filter: args.filter } : {}),
          ...(args.minScore !== undefined ? { minScore: args.minScore } : {}),
        });
        const frame = induced ?? EMPTY_FRAME(args.query);
        const ordered = [...hits].sort((a, b) => a.rank - b.rank);
        const memories = ordered.map(recalledMemory);
        // When the store likely holds nothing for the query, the pack's first line says so (and what is missing).
        const evidence = renderEvidence(
          ordered.map((h) => h.unit),
          { holdsEvidence },
        ).text;
        let text: string;
        if (memories.length > 0) text = [describeFrame(frame, ordered), evidence, describeReasons(memories)].join("\n\n");
        else {
          // The caller may read this namespace, so saying it is empty leaks nothing.
          const empty = (await memory.stats(args.namespace)).units === 0;
          text = empty
            ? `Namespace ${JSON.stringify(args.namespace)} holds no memories yet: store some with remember first (or check the namespace name).`
            : `No memories in namespace ${JSON.stringify(args.namespace)} match this query.`;
        }
        return {
          content: [{ type: "text", text }],
          structuredContent: { namespace: args.namespace, query: args.query, frame: frameSummary(frame), holdsEvidence: escapedJudgment(holdsEvidence), memories, evidence },
        };
      }),
  );

  server.registerTool(
    "ask",
    {
      title: "Answer from memory",
      description:
        "Answer a question from long-term memory with the server's LLM, citing the memories used. Returns the answer, the cited memories (unit ids and source turns) and the evidence pack. When the server has no LLM configured, returns the evidence pack and says so: answer from it yourself.",
      inputSchema: askInput,
      outputSchema: askOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(args.namespace, "read", async () => {
        const questionDate = args.questionDate === undefined ? undefined : parseDate(args.questionDate, "questionDate");
        const result = await memory.ask(args.question, {
          namespace: args.namespace,
          ...(args.k ? { k: args.k } : {}),
          ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
          ...(questionDate ? { questionDate } : {}),
          ...(args.abstain !== undefined ? { abstain: args.abstain } : {}),
        });
        const memories = [...result.hits].sort((a, b) => a.rank - b.rank).map(recalledMemory);
        let text: string;
        // The pack's first line says what the judgment found missing.
        if (result.abstained) text = `Answer: ${result.answer}\n\n${result.evidence.text}`;
        else if (!result.llmConfigured) text = `${NO_LLM_NOTICE}\n\n${result.evidence.text}`;
        else text = describeAnswer(result);
        return {
          content: [{ type: "text", text }],
          structuredContent: {
            namespace: args.namespace,
            question: args.question,
            llmConfigured: result.llmConfigured,
            // The model's answer read stored text and may repeat it: escaped like the text content's "Answer:".
            answer: result.answer === null ? null : escapeStoredText(result.answer),
            abstained: result.abstained,
            holdsEvidence: escapedJudgment(result.holdsEvidence),
            cited: result.cited.map((c) => ({ rank: c.rank, unitId: c.unitId, turnIds: [...c.turnIds] })),
            evidence: result.evidence.text,
            memories,
          },
        };
      }),
  );

  server.registerTool(
    "forget",
    {
      title: "Forget memories",
      description:
        'Delete from long-term memory: one memory (what: "unit", id: the unitId from recall), a whole conversation (what: "session", id: the sessionId), or everything in a namespace (what: "namespace"; admin keys only). Deleted memories are gone from every index and are never recalled again.',
      inputSchema: forgetInput,
      outputSchema: forgetOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(args.namespace, args.what === "namespace" ? "admin" : "write", async () => {
        const { namespace, what } = args;
        let deleted: number;
        if (what === "namespace") deleted = await memory.forgetNamespace(namespace, { actor: actorOf(principal) });
        else {
          if (!args.id) {
            throw new RamemError("BAD_INPUT", `forget ${what} needs the ${what} id`, {
              where: "id",
              hint: what === "unit" ? "pass the unitId that recall returned" : "pass the sessionId that remember returned",
            });
          }
          // A unit goes with its words in its neighbours' cues (forgetUnit); both hold the namespace's write lock.
          const actor = actorOf(principal);
          deleted = what === "unit" ? Number(await memory.forgetUnit(args.id, { namespace, actor })) : await memory.forgetSession(args.id, { namespace, actor });
          if (deleted === 0) {
            throw new RamemError("NOT_FOUND", `no ${what} ${echoValue(args.id)} in namespace ${echoValue(namespace)}`, {
              hint: what === "unit" ? "use a unitId from a recall in this namespace" : "use a sessionId from remember (or recall's session.id) in this namespace",
            });
          }
        }
        const id = what === "namespace" ? null : (args.id ?? null);
        const text =
          what === "namespace"
            ? `Forgot namespace ${JSON.stringify(namespace)}: ${deleted} memories deleted.`
            : `Forgot ${what} ${JSON.stringify(id)} in namespace ${JSON.stringify(namespace)}: ${deleted} memor${deleted === 1 ? "y" : "ies"} deleted.`;
        return { content: [{ type: "text", text }], structuredContent: { namespace, what, id, unitsDeleted: deleted } };
      }),
  );

  server.registerTool(
    "update",
    {
      title: "Correct a memory",
      description:
        "Correct what one memory says (id: the unitId from recall; text: the corrected words). The memory keeps its place in its conversation and is re-read for times, people and places; the old text stays in its history. A forgotten memory cannot be updated: remember the corrected words instead.",
      inputSchema: updateInput,
      outputSchema: updateOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(args.namespace, "write", async () => {
        const unit = await memory.update(args.id, { text: args.text }, { namespace: args.namespace, actor: actorOf(principal) });
        const text = `Updated memory ${JSON.stringify(unit.id)} in namespace ${JSON.stringify(args.namespace)}: ${escapeStoredText(unit.content)}`;
        return { content: [{ type: "text", text }], structuredContent: { namespace: args.namespace, unitId: unit.id, content: escapeStoredText(unit.content), updatedAt: unit.updatedAt ?? null } };
      }),
  );

  return server;
}
