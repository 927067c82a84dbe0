import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { KeyedLock } from "../../util/keyed-lock.js";
import { MCP_TOOL_NAMES } from "./tool-schemas.js";

type RequestId = string | number;

export interface GuardToolCallsOptions {
  /**
   * Run the `tools/call` requests that name one namespace one at a time, in
   * the order they arrived (each waits for the previous one's response). For
   * a transport on which a client pipelines requests (stdio): a `recall` sent
   * right after a `forget` must not run before the forget has deleted.
   */
  serializeByNamespace?: boolean;
}

/**
 * Sits between a connected transport and the SDK's server (call it after
 * `server.connect(transport)`):
 * - a `tools/call` whose `name` is not a string, or whose `arguments` is not
 *   an object, is answered with JSON-RPC −32602 (invalid params) and a
 *   sentence saying what to send; the SDK would answer −32603 (internal
 *   error) with its schema dump;
 * - with `serializeByNamespace`, calls to one namespace keep their order.
 */
export function guardToolCalls(transport: Transport, options: GuardToolCallsOptions = {}): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("guardToolCalls: connect the server to the transport first");
  const lock = new KeyedLock();
  const answered = new Map<RequestId, () => void>();
  const send = transport.send.bind(transport);
  transport.send = async (message, sendOptions) => {
    await send(message, sendOptions);
    if ("id" in message && !("method" in message) && message.id !== undefined) settle(message.id);
  };
  const settle = (id: RequestId) => {
    answered.get(id)?.();
    answered.delete(id);
  };

  transport.onmessage = (message, extra) => {
    if (isRequest(message, "tools/call")) {
      const problem = invalidToolCall(message.params);
      if (problem) {
        void transport.send({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: problem } });
        return;
      }
      const namespace = (message.params as { arguments?: { namespace?: unknown } } | undefined)?.arguments?.namespace;
      if (options.serializeByNamespace && typeof namespace === "string") {
        // Queued now, on arrival: the queue's order is the order the client sent.
        void lock.run(namespace, () => {
          const done = new Promise<void>((resolve) => answered.set(message.id, resolve));
          deliver(message, extra);
          return done;
        });
        return;
      }
    }
    // A cancelled request gets no response: release its place in the queue.
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) settle(id);
    }
    deliver(message, extra);
  };
}

function isRequest(message: JSONRPCMessage, method: string): message is JSONRPCMessage & { id: RequestId; method: string; params?: unknown } {
  return "method" in message && message.method === method && "id" in message;
}

function invalidToolCall(params: unknown): string | null {
  const tools = MCP_TOOL_NAMES.join(", ");
  if (typeof params !== "object" || params === null) return `tools/call needs params: { "name": one of ${tools}, "arguments": { ... } }`;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") return `tools/call needs params.name, the tool to call: one of ${tools}`;
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) return `tools/call params.arguments must be an object of the tool's inputs (see tools/list), got ${Array.isArray(args) ? "an array" : typeof args}`;
  return null;
}
