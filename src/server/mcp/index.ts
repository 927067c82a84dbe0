// The MCP face of ramem: tools over any transport, and the streamable-HTTP app to mount at /mcp.
export { createMcpServer, NO_LLM_NOTICE, MCP_SERVER_NAME, MCP_SERVER_VERSION, type McpServerOptions } from "./create-mcp-server.js";
export { createMcpHttpApp, type Authenticate, type McpHttpAppOptions } from "./create-mcp-http-app.js";
export { rememberTurns, type RememberRequest, type RememberOutcome } from "./remember-turns.js";
