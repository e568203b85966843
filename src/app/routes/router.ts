// The router: size limit, parse the body, match a route, authenticate, rate limit, check the role, validate, run,
// and map errors. It touches no Apps Script service itself (web.ts hands it the token check, the limits
// and the log), so it is tested in-process too.
import {
  type ApiError,
  apiError,
  errorToApi,
  fieldIssues,
  matchPath,
  type Method,
  routeKey,
  utf8Bytes,
} from '../../core/api/api.js';
import { echoable, withoutTokens } from '../../core/api/input-echo.js';
import { isPrototypeName, JsonInputError, parseJsonInput } from '../../core/json-guard.js';
import type { CallContext, Caller, Operation } from './route.js';

export type Body = Record<string, unknown>;

export interface WebRequest {
  method: Method;
  // The query parameters (the path and token travel here too).
  parameter: Record<string, string>;
  // The raw POST body, if any.
  contents?: string;
}

// What the MCP handler may say about the call for the API log: `called` is what the call did
// (`mcp tools/call send_message`); status and code, when the JSON-RPC answer carries an error the log should show.
export interface McpMeta {
  called: string;
  status?: number;
  code?: string;
}

// The MCP endpoint (POST ?path=/mcp): handed the parsed JSON-RPC body once the caller is known (src/app/mcp/).
export type McpHandler = (body: unknown, caller: Caller, meta: McpMeta) => Body | null;

// What the API log records of one request: never the token, the raw path or the body.
export interface CallInfo {
  // The client's name, or '' when the token was missing or bad (or not reached).
  client: string;
  // The route pattern (`POST /tasks/{id}/result`), `METHOD (no route)`, or the MCP handler's label.
  call: string;
  status: number;
  code: string;
}

export interface RouterDeps {
  operations: readonly Operation[];
  // See CallContext.workOwnTask.
  workOwnTask?: CallContext['workOwnTask'];
  ownTaskStep?: CallContext['ownTaskStep'];
  mcp?: McpHandler;
  authenticate: (token: string | undefined) => Caller | null;
  // Told about every error a route or the token check threw, with the answer the client gets (which it may amend).
  onError?: (e: unknown, answer: ApiError) => void;
  // The largest body accepted, in UTF-8 bytes (Settings api.max_body_bytes); asked only when a body came.
  maxBodyBytes?: () => number;
  // Asked once the caller is known, before anything else about the call: an answer (429) refuses it.
  admit?: (caller: Caller) => ApiError | null;
  // Told once per request, whatever the answer, what the API log records.
  onDone?: (info: CallInfo) => void;
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

// The size check comes before JSON.parse: a huge body is refused without being parsed. A body at most a third of the
// limit long cannot be over it (a UTF-16 unit is at most 3 bytes of UTF-8), so only longer ones are counted.
function tooLarge(contents: string, max: number): ApiError | null {
  if (contents.length * 3 <= max) return null;
  const bytes = utf8Bytes(contents);
  if (bytes <= max) return null;
  return apiError(413, 'payload_too_large', `The request body is ${bytes} bytes, over the limit of ${max}.`, {
    max_bytes: max,
    bytes,
  });
}

// The body through the JSON guard (src/core/json-guard.ts): nesting past its limit and prototype keys are 400
// invalid_json before anything reads them; so is any query parameter named after an object's member (toString too).
function parseBody(req: WebRequest): { body: Body } | { answer: ApiError } {
  for (const k of Object.keys(req.parameter))
    if (isPrototypeName(k))
      return {
        answer: apiError(400, 'invalid_json', `The query parameter ${k} is not accepted.`, [
          { field: k, code: 'forbidden_key', message: `the key ${k} is not accepted` },
        ]),
      };
  if (req.method !== 'POST' || !req.contents) return { body: {} };
  let parsed: unknown;
  try {
    parsed = parseJsonInput(req.contents);
  } catch (e) {
    if (e instanceof JsonInputError) return { answer: errorToApi(e) };
    throw e;
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

function tokenOf(req: WebRequest, body: Body): string | undefined {
  return req.parameter.token || (typeof body.token === 'string' ? body.token : undefined);
}

function isError(answer: Body | ApiError): answer is ApiError {
  const e = (answer as ApiError).error;
  return !!e && typeof e === 'object' && typeof e.code === 'string';
}

// An MCP answer that reports a failure: a JSON-RPC error, or a tool's result marked isError.
function isMcpError(answer: Body): boolean {
  const result = answer.result as { isError?: unknown } | undefined;
  return answer.jsonrpc === '2.0' && (!!answer.error || (!!result && result.isError === true));
}

export function routeRequest(req: WebRequest, deps: RouterDeps): Body | ApiError {
  const info: CallInfo = { client: '', call: '', status: 0, code: '' };
  const sent: { token?: string } = {};
  let answer = route(req, deps, info, sent);
  info.status = typeof answer.status === 'number' ? answer.status : info.status || 200;
  if (isError(answer)) info.code = answer.error.code;
  // Whatever a message quoted, an error never carries a token back (src/core/api/input-echo.ts).
  if (isError(answer) || isMcpError(answer)) answer = withoutTokens(answer, sent.token);
  if (deps.onDone) deps.onDone(info);
  return answer;
}

// A POST whose JSON came form-encoded (curl -d without Content-Type: application/json): Apps Script also hands the
// whole body over as a query parameter's name, which no route takes. Told so, without repeating that name.
function formEncodedJson(req: WebRequest): ApiError | null {
  if (req.method !== 'POST' || !Object.keys(req.parameter).some((k) => /^\s*[{[]/.test(k))) return null;
  const message = 'The JSON body arrived form-encoded: send it with the header Content-Type: application/json.';
  return apiError(400, 'invalid_input', message, [{ field: '', code: 'form_encoded_body', message }]);
}

function route(req: WebRequest, deps: RouterDeps, info: CallInfo, sent: { token?: string }): Body | ApiError {
  const path = String(req.parameter.path || '/');
  const key = routeKey(req.method, path);
  const mcp = deps.mcp && key === 'POST /mcp' ? deps.mcp : null;
  const found = mcp ? null : findRoute(deps.operations, req.method, path);
  // The log names the route's pattern, never the path as sent (user input, possibly anything).
  info.call = mcp ? 'mcp' : found ? `${req.method} ${found.route.http!.path}` : `${req.method} (no route)`;
  try {
    if (req.method === 'POST' && req.contents && deps.maxBodyBytes) {
      const over = tooLarge(req.contents, deps.maxBodyBytes());
      if (over) return over;
    }
    const parsed = parseBody(req);
    if ('answer' in parsed) return parsed.answer;
    const body = parsed.body;
    if (mcp) {
      sent.token = tokenOf(req, body);
      return routeMcp(req, body, deps, mcp, info);
    }
    if (!found)
      return apiError(404, 'not_found', `No endpoint ${echoable(path) ? key : `${req.method} at that path`}.`);
    const { route, params } = found;
    sent.token = tokenOf(req, body);
    const caller = deps.authenticate(sent.token);
    if (!caller) return apiError(401, 'unauthorized', 'A valid API token is required.');
    info.client = caller.name;
    const refused = deps.admit ? deps.admit(caller) : null;
    if (refused) return refused;
    if (route.roles.indexOf(caller.role) < 0)
      return apiError(403, 'forbidden', `The ${caller.role} role cannot call ${info.call}.`, {
        roles: route.roles,
      });
    const form = formEncodedJson(req);
    if (form) return form;
    const input = route.input.safeParse(inputOf(req.parameter, body, params));
    if (!input.success) {
      const issues = fieldIssues(input.error);
      const first = issues[0];
      const where = first.field ? `${first.field}: ${first.message}` : first.message;
      return apiError(400, 'invalid_input', `The input of ${info.call} is not valid (${where}).`, issues);
    }
    const result = route.handler(input.data, {
      caller,
      called: key,
      requestKey: '',
      operations: deps.operations,
      workOwnTask: deps.workOwnTask,
      ownTaskStep: deps.ownTaskStep,
    });
    return 'status' in result || route.bare ? result : { status: 200, ...result };
  } catch (e) {
    const answer = errorToApi(e);
    if (deps.onError) deps.onError(e, answer);
    return answer;
  }
}

// POST ?path=/mcp: the limits and the token as for any route (any role may speak MCP; each tool checks its own
// roles), then the JSON-RPC body goes to the MCP server. A notification gets an empty answer.
function routeMcp(req: WebRequest, body: Body, deps: RouterDeps, mcp: McpHandler, info: CallInfo): Body | ApiError {
  const caller = deps.authenticate(tokenOf(req, body));
  if (!caller) return apiError(401, 'unauthorized', 'A valid API token is required.');
  info.client = caller.name;
  const refused = deps.admit ? deps.admit(caller) : null;
  if (refused) return refused;
  const rpc: Body = {};
  for (const k of Object.keys(body)) if (k !== 'token') rpc[k] = body[k];
  const meta: McpMeta = { called: 'mcp' };
  try {
    return mcp(rpc, caller, meta) ?? {};
  } finally {
    info.call = meta.called;
    if (meta.status) info.status = meta.status;
    if (meta.code) info.code = meta.code;
  }
}
