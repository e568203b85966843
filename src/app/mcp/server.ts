// A stateless MCP server over JSON-RPC 2.0 with plain JSON answers: each POST ?path=/mcp is answered on its own.
import { type ApiError, errorToApi } from '../../core/api/api.js';
import { echoInput } from '../../core/api/input-echo.js';
import type { Caller } from '../routes/route.js';
import type { McpHandler, McpMeta } from '../routes/router.js';
import { type CallDeps, callTool } from './call.js';
import {
  CAPABILITIES,
  classify,
  INSTRUCTIONS,
  PROTOCOL_VERSIONS,
  RPC,
  type RpcAnswer,
  type RpcId,
  rpcError,
  rpcResult,
  SERVER_INFO,
} from './protocol.js';
import { listTools } from './tools.js';

// What the API log shows for a method: the method as sent, cut short (it is the client's text).
function calledFor(method: string): string {
  return `mcp ${method.slice(0, 64)}`;
}

// initialize: the client's version when this server speaks it, else this server's newest (the client then decides).
function initialize(params: Record<string, unknown>): Record<string, unknown> {
  const asked = params.protocolVersion;
  const protocolVersion =
    typeof asked === 'string' && PROTOCOL_VERSIONS.indexOf(asked) >= 0 ? asked : PROTOCOL_VERSIONS[0];
  return { protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
}

function request(
  id: RpcId,
  method: string,
  params: Record<string, unknown>,
  caller: Caller,
  meta: McpMeta,
  deps: CallDeps,
): RpcAnswer {
  switch (method) {
    case 'initialize':
      return rpcResult(id, initialize(params));
    case 'ping':
      return rpcResult(id, {});
    case 'tools/list':
      // One page: Kaigi has a dozen tools, so a cursor is never needed.
      return rpcResult(id, { tools: listTools(deps.operations, caller.role) });
    case 'tools/call': {
      const outcome = callTool(id, params, caller, deps);
      meta.called = outcome.called;
      if ('error' in outcome) return rpcError(id, outcome.error.code, outcome.error.message, outcome.error.data);
      return rpcResult(id, outcome.result);
    }
    case 'server/discover':
      // Newer clients (stateless MCP) ask this before, or instead of, initialize.
      return rpcResult(id, {
        supportedVersions: PROTOCOL_VERSIONS,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      });
    default:
      return rpcError(id, RPC.methodNotFound, `Method not found: ${echoInput(method, 'that method')}.`);
  }
}

// JSON-RPC's error codes as the HTTP status and code the API log shows for them.
const LOGGED: Record<number, [number, string]> = {
  [RPC.invalidRequest]: [400, 'invalid_request'],
  [RPC.methodNotFound]: [404, 'method_not_found'],
  [RPC.invalidParams]: [400, 'invalid_params'],
  [RPC.internalError]: [500, 'internal'],
};

// The API log shows a failed call as failed: a JSON-RPC error by its code, a tool error by the status of its error
// JSON.
function note(answer: RpcAnswer, meta: McpMeta): RpcAnswer {
  const error = answer.error as { code: number } | undefined;
  const result = answer.result as { isError?: boolean; structuredContent?: ApiError } | undefined;
  if (error) [meta.status, meta.code] = LOGGED[error.code] ?? [500, 'internal'];
  else if (result?.isError && result.structuredContent) {
    meta.status = result.structuredContent.status;
    meta.code = result.structuredContent.error.code;
  }
  return answer;
}

export function createMcpServer(deps: CallDeps): McpHandler {
  return (body, caller, meta) => {
    const msg = classify(body);
    if (msg.kind === 'invalid') {
      meta.called = 'mcp (invalid request)';
      return note(rpcError(msg.id, RPC.invalidRequest, `Invalid request: ${msg.message}`), meta);
    }
    // Notifications (notifications/initialized, notifications/cancelled) and a client's responses need no answer;
    // the router sends an empty object, which a client ignores for a message that was not a request.
    if (msg.kind === 'response') {
      meta.called = 'mcp (response)';
      return null;
    }
    meta.called = calledFor(msg.method);
    if (msg.kind === 'notification') return null;
    try {
      return note(request(msg.id, msg.method, msg.params, caller, meta, deps), meta);
    } catch (e) {
      // Never a stack trace: the API's error JSON travels as the JSON-RPC error's data.
      const failed = errorToApi(e);
      if (deps.onError) deps.onError(e, failed);
      return note(rpcError(msg.id, RPC.internalError, failed.error.message, failed), meta);
    }
  };
}
