/**
 * One thread of the rule-anchorer pool (rule-anchorer-pool.ts): anchors the
 * sessions the pool hands it with the in-process rule anchorer itself, so a
 * unit from the pool is made by exactly the code that makes it without one.
 */
import { workerData } from "node:worker_threads";
import type { AnchorResult } from "./anchorer.js";
import type { SessionWithTurns } from "../model/conversation.js";
import { createRuleAnchorer, type RuleAnchorerOptions } from "./rule-anchorer.js";
import { servePoolTasks } from "../util/serve-pool-tasks.js";

const anchorer = createRuleAnchorer(workerData as RuleAnchorerOptions);

servePoolTasks<SessionWithTurns, AnchorResult>((session) => anchorer.anchorSession(session));
