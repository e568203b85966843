// An MCP server on the official SDK whose tools are the web app's: tools/list, tools/call (and any other request but
// initialize and ping, which the SDK answers as Kaigi's server would) are forwarded to POST ?path=/mcp with the token.
// Used by `kaigi gateway` (Streamable HTTP at /mcp) and `kaigi mcp` (stdio).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, ListToolsResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { CAPABILITIES, INSTRUCTIONS, SERVER_INFO } from '../../src/app/mcp/protocol.js';
import { callWebApp, isObject, type Json, UpstreamError, type WebAppCall } from './upstream.js';

// The JSON-RPC code for an error of the server, not of the request (the web app, HTTP, the network).
const SERVER_ERROR = -32000;

// A JSON-RPC error to answer with: the SDK sends `code`, `message` and `data` of what a handler throws as they are.
class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface Forwarding {
  exec: URL;
  token: string;
  // Put before each request id the web app sees (`SESSION:ID`). The web app replays a tools/call re-sent with the same
  // id for the same token; clients number their requests from 0 in every session, so the id carries the session and
  // a new session's first call is not taken for an old one. Empty: the client's id as it is.
  session: string;
  // Told of every request while it is forwarded, so a caller can wait for the answers still due.
  track?: (p: Promise<unknown>) => void;
  // How a call reaches the web app: the gateway's guard (its limits), else straight to `exec`.
  call?: (c: WebAppCall) => Promise<{ body: Json }>;
}

// The web app's answer to one request, as what the handler returns (a result) or throws (its error).
function resultOf(body: Json): Json {
  if (body.jsonrpc === '2.0' && isObject(body.result)) return body.result;
  if (body.jsonrpc === '2.0' && isObject(body.error)) {
    const e = body.error;
    throw new RpcError(
      String(e.message ?? 'error'),
      Number.isSafeInteger(e.code) ? Number(e.code) : SERVER_ERROR,
      e.data,
    );
  }
  // The web API's error JSON (a bad token, the rate limit): the status travels in the body, and on to the client.
  if (isObject(body.error) && typeof body.error.message === 'string')
    throw new RpcError(body.error.message, SERVER_ERROR, {
      status: body.status,
      code: body.error.code,
      details: body.error.details,
    });
  throw new RpcError('The web app answered JSON that is not a JSON-RPC response.', SERVER_ERROR, {
    status: typeof body.status === 'number' ? body.status : undefined,
  });
}

async function forward(f: Forwarding, method: string, params: unknown, id: RequestId): Promise<Json> {
  const sent = f.session ? `${f.session}:${JSON.stringify(id)}` : id;
  const message: Json = { jsonrpc: '2.0', id: sent, method, token: f.token };
  if (params !== undefined) message.params = params;
  try {
    const call: WebAppCall = { method: 'POST', path: '/mcp', body: message };
    return resultOf((await (f.call ? f.call(call) : callWebApp(f.exec, call))).body);
  } catch (e) {
    if (e instanceof UpstreamError) throw new RpcError(e.message, SERVER_ERROR, { status: e.status, code: e.code });
    throw e;
  }
}

// A new server for one connection (stdio) or one HTTP request (the gateway is stateless).
export async function forwardingServer(f: Forwarding): Promise<Server> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  const send = (method: string, params: unknown, id: RequestId) => {
    const p = forward(f, method, params, id);
    f.track?.(p);
    return p;
  };
  server.setRequestHandler(
    ListToolsRequestSchema,
    async (req, extra) => (await send('tools/list', req.params, extra.requestId)) as ListToolsResult,
  );
  server.setRequestHandler(
    CallToolRequestSchema,
    async (req, extra) => (await send('tools/call', req.params, extra.requestId)) as CallToolResult,
  );
  // Whatever else a client asks (server/discover, a method Kaigi lacks) is the web app's to answer.
  server.fallbackRequestHandler = async (req, extra) => send(req.method, req.params, extra.requestId);
  return server;
}
