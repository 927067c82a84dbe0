// The server faces of ramem, as a separate entry (`ramem/server`): importing
// `ramem` itself never loads Hono or the MCP SDK.
export { startServer, DEFAULT_HOST, DEFAULT_PORT, type StartServerOptions, type RunningServer, type SubAppDeps } from "./serve.js";
export { createRestApp, API_VERSION } from "./rest/create-rest-app.js";
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IMPORT_BYTES, type RestDeps, type RestApp } from "./rest/rest-deps.js";
export { createAuthenticator, type Authenticate, type AuthenticatorOptions, type OpenMode } from "./auth/authenticate.js";
export { createHostOriginPolicy, hostOriginGuard, refuseHostOrOrigin, type HostOriginPolicy, type HostOriginOptions } from "./host-origin-guard.js";
export { createApiKey, type NewApiKey, type CreatedApiKey } from "./auth/create-api-key.js";
export { LOCAL_PRINCIPAL, type Principal } from "./auth/principal.js";
export { openApiKeyStore } from "../store/open-api-key-store.js";
export type { ApiKeyStore, ApiKeyRecord, Role } from "../store/api-key-contract.js";
export { createMcpServer, NO_LLM_NOTICE, MCP_SERVER_NAME, MCP_SERVER_VERSION, type McpServerOptions } from "./mcp/create-mcp-server.js";
export { createMcpHttpApp, type McpHttpAppOptions } from "./mcp/create-mcp-http-app.js";
export { guardToolCalls, type GuardToolCallsOptions } from "./mcp/guard-tool-calls.js";
export { rememberTurns, type RememberRequest, type RememberOutcome } from "./mcp/remember-turns.js";
