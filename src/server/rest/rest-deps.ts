import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Memory } from "../../memory.js";
import { RamemError } from "../../model/errors.js";
import type { Authenticate } from "../auth/authenticate.js";
import type { AuthEnv } from "../auth/middleware.js";
import { echoValue } from "../../model/echo-value.js";

export const DEFAULT_MAX_BODY_BYTES = 512 * 1024;
export const DEFAULT_MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export interface RestDeps {
  /** Every write goes through its methods, which hold the Memory's per-namespace write lock. */
  memory: Memory;
  authenticate: Authenticate;
  /** Request body limit of every route but import. Default 512 KiB. */
  maxBodyBytes?: number;
  /** Body limit of POST .../import (a whole namespace). Default 64 MiB. */
  maxImportBytes?: number;
  /** Bench report files (bench-out/NAME/results.json) the inspector's benchmark viewer may open: GET /v1/bench-results. */
  benchResults?: readonly string[];
}

export type RestApp = OpenAPIHono<AuthEnv>;

/** "Unknown namespace" means: no session stored in it. Only asked after the caller was authorised for it. */
export async function requireKnownNamespace(memory: Memory, namespace: string): Promise<void> {
  const s = await memory.store.stats(namespace);
  if (s.sessions === 0 && s.units === 0) {
    throw new RamemError("NAMESPACE_NOT_FOUND", `namespace ${echoValue(namespace)} holds no sessions`, {
      hint: `ingest a session first: PUT /v1/namespaces/${namespace}/sessions/{sessionId}`,
    });
  }
}
