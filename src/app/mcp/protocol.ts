// The JSON-RPC 2.0 envelope of Kaigi's MCP server: protocol versions, server info, error codes, and answers.

// The protocol versions this server speaks, newest first: the released versions the official TypeScript SDK (1.32)
// sends. Kaigi only serves tools, whose wire format is the same in all of them (structuredContent, added in
// 2025-06-18, is an extra field older clients ignore).
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

// Kept equal to package.json's version (tests/src/app/mcp-server.test.ts checks it): the bundle cannot read it.
export const SERVER_VERSION = '0.1.0';

export const SERVER_INFO = { name: 'kaigi', title: 'Kaigi', version: SERVER_VERSION };

export const CAPABILITIES = { tools: { listChanged: false } };

export const INSTRUCTIONS =
  'Kaigi is an auditable council of AI agents that lives in one Google Spreadsheet. ' +
  'start_discussion asks the council to discuss a case and decide; get_discussion follows it; an executor reports ' +
  'on an order with report_result; get_status shows each agent and today’s budget. Every discussion is also a ' +
  'read-only room (DISC-…). Create free rooms, enter them, send messages (an @agent_id mention asks that council ' +
  'agent to answer in the room) and read them with get_messages. The tools listed are those your token’s role may ' +
  'call. A tools/call re-sent with the same JSON-RPC id and arguments is answered once, not acted on twice.';

// JSON-RPC 2.0's error codes (the MCP specification uses them as they are).
export const RPC = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export type RpcId = string | number;

export type RpcAnswer = Record<string, unknown>;

export function rpcResult(id: RpcId, result: Record<string, unknown>): RpcAnswer {
  return { jsonrpc: '2.0', id, result };
}

// `id` is null only when the request's own id could not be read (JSON-RPC 2.0 §5).
export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): RpcAnswer {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

// A message as received: a request (with an id), a notification (without), or something that is neither.
export type Incoming =
  | { kind: 'request'; id: RpcId; method: string; params: Record<string, unknown> }
  | { kind: 'notification'; method: string }
  // A client's answer to a server request; this server sends none, so there is nothing to do with it.
  | { kind: 'response' }
  | { kind: 'invalid'; id: RpcId | null; message: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isId(v: unknown): v is RpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

export function classify(body: unknown): Incoming {
  if (!isObject(body)) return { kind: 'invalid', id: null, message: 'A JSON-RPC message is a JSON object.' };
  const id = isId(body.id) ? body.id : null;
  if (body.jsonrpc !== '2.0') return { kind: 'invalid', id, message: 'The jsonrpc member must be "2.0".' };
  if (!('method' in body) && ('result' in body || 'error' in body)) return { kind: 'response' };
  if (typeof body.method !== 'string' || body.method === '')
    return { kind: 'invalid', id, message: 'The method member must be a non-empty string.' };
  if ('params' in body && body.params !== undefined && !isObject(body.params))
    return { kind: 'invalid', id, message: 'The params member must be an object.' };
  if (!('id' in body)) return { kind: 'notification', method: body.method };
  // MCP forbids a null id (and JSON-RPC discourages it); anything but a string or a number is not an id either.
  if (id === null) return { kind: 'invalid', id: null, message: 'The id member must be a string or a number.' };
  return { kind: 'request', id, method: body.method, params: isObject(body.params) ? body.params : {} };
}
