// The router: parse the body, match a route, authenticate, check the role, validate, run, and map errors (SPEC §11).
// It touches no Apps Script service itself (web.ts hands it the token check), so it is tested in-process too.
import { type ApiError, apiError, errorToApi, fieldIssues, matchPath, type Method, routeKey } from '../../core/api.js';
import type { Caller, Operation } from './route.js';

export type Body = Record<string, unknown>;

export interface WebRequest {
  method: Method;
  // The query parameters (the path and token travel here too).
  parameter: Record<string, string>;
  // The raw POST body, if any.
  contents?: string;
}

// The MCP endpoint (POST ?path=/mcp): handed the parsed JSON-RPC body once the caller is known (src/app/mcp/).
// `meta.called` is set to what the call did (`mcp tools/call send_message`) for the API log.
export type McpHandler = (body: unknown, caller: Caller, meta: { called: string }) => Body | null;

export interface RouterDeps {
  operations: readonly Operation[];
  mcp?: McpHandler;
  authenticate: (token: string | undefined) => Caller | null;
  // Told about every error a route or the token check threw, with the answer the client gets (which it may amend).
  onError?: (e: unknown, answer: ApiError) => void;
}

function findRoute(
  operations: readonly Operation[],
  method: Method,
  path: string,
): { route: Operation; params: Record<string, string> } | null {
  for (const route of operations) {
    if (!route.http || route.http.method !== method) continue;
    const params = matchPath(route.http.path, path);
    if (params) return { route, params };
  }
  return null;
}

function parseBody(req: WebRequest): { body: Body } | { answer: ApiError } {
  if (req.method !== 'POST' || !req.contents) return { body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(req.contents);
  } catch {
    return { answer: apiError(400, 'invalid_json', 'The request body is not valid JSON.') };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    return { answer: apiError(400, 'invalid_json', 'The request body must be a JSON object.') };
  return { body: parsed as Body };
}

// What a route's schema sees: query parameters, then body fields, then {path} params; never the path or token.
function inputOf(parameter: Record<string, string>, body: Body, params: Record<string, string>): Body {
  const input: Body = {};
  for (const k of Object.keys(parameter)) if (k !== 'path' && k !== 'token') input[k] = parameter[k];
  for (const k of Object.keys(body)) if (k !== 'token') input[k] = body[k];
  for (const k of Object.keys(params)) input[k] = params[k];
  return input;
}

export function routeRequest(req: WebRequest, deps: RouterDeps): Body | ApiError {
  const parsed = parseBody(req);
  if ('answer' in parsed) return parsed.answer;
  const body = parsed.body;
  const path = String(req.parameter.path || '/');
  const key = routeKey(req.method, path);
  if (deps.mcp && key === 'POST /mcp') return routeMcp(req, body, deps, deps.mcp);
  const found = findRoute(deps.operations, req.method, path);
  if (!found) return apiError(404, 'not_found', `No endpoint ${key}.`);
  const { route, params } = found;
  try {
    const token = req.parameter.token || (typeof body.token === 'string' ? body.token : undefined);
    const caller = deps.authenticate(token);
    if (!caller) return apiError(401, 'unauthorized', 'A valid API token is required.');
    if (route.roles.indexOf(caller.role) < 0)
      return apiError(403, 'forbidden', `The ${caller.role} role cannot call ${key}.`);
    const input = route.input.safeParse(inputOf(req.parameter, body, params));
    if (!input.success)
      return apiError(400, 'invalid_input', `The input of ${key} is not valid.`, fieldIssues(input.error));
    const result = route.handler(input.data, { caller, called: key, requestKey: '' });
    return 'status' in result ? result : { status: 200, ...result };
  } catch (e) {
    const answer = errorToApi(e);
    if (deps.onError) deps.onError(e, answer);
    return answer;
  }
}

// POST ?path=/mcp: the token as for any route (any role may speak MCP; each tool checks its own roles), then the
// JSON-RPC body goes to the MCP server. A notification gets an empty answer.
function routeMcp(req: WebRequest, body: Body, deps: RouterDeps, mcp: McpHandler): Body | ApiError {
  try {
    const token = req.parameter.token || (typeof body.token === 'string' ? body.token : undefined);
    const caller = deps.authenticate(token);
    if (!caller) return apiError(401, 'unauthorized', 'A valid API token is required.');
    const rpc: Body = {};
    for (const k of Object.keys(body)) if (k !== 'token') rpc[k] = body[k];
    return mcp(rpc, caller, { called: 'mcp' }) ?? {};
  } catch (e) {
    const answer = errorToApi(e);
    if (deps.onError) deps.onError(e, answer);
    return answer;
  }
}
