// tools/call: the role check, the zod input, the operation, and a replay of the first answer when a client re-sends it.
import { type ApiError, apiError, errorToApi, fieldIssues } from '../../core/api/api.js';
import { echoInput } from '../../core/api/input-echo.js';
import type { CallContext, Caller, Operation } from '../routes/route.js';
import { RPC, type RpcId } from './protocol.js';
import { isTool, mayCall } from './tools.js';

// Where answers wait to be replayed (CacheService in Apps Script: src/store/mcp-cache.ts).
export interface ReplayCache {
  get(key: string): string | null;
  // False when the value is too large to keep; the call is then not replayed (requestKey still dedupes).
  put(key: string, value: string, seconds: number): boolean;
  remove(key: string): void;
}

export interface CallDeps {
  operations: readonly Operation[];
  // See CallContext.workOwnTask.
  workOwnTask?: CallContext['workOwnTask'];
  ownTaskStep?: CallContext['ownTaskStep'];
  cache: ReplayCache;
  // Settings api.replay_seconds: how long a re-sent call gets the first answer; 0 turns replays off.
  replaySeconds: () => number;
  // SHA-256 as hex.
  hash: (text: string) => string;
  sleep: (ms: number) => void;
  now: () => number;
  // Told about every error an operation threw, with the answer the client gets (ConfigError → a person's Inbox).
  onError?: (e: unknown, answer: ApiError) => void;
}

// A type, not an interface: a JSON-RPC result is any JSON object, and only a type alias is one.
type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: true;
};

type CallOutcome =
  | { result: ToolResult; called: string }
  | { error: { code: number; message: string; data?: unknown }; called: string };

// CacheService keeps a value at most 6 hours.
const MAX_REPLAY_SECONDS = 21600;
// An execution lasts at most 6 minutes, so a call still marked as running after that never finished.
const RUNNING_SECONDS = 360;
// How long a re-sent call waits for the first one to finish before it says the call is still running.
const WAIT_MS = 15000;
const POLL_MS = 1000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// The same JSON whatever order a client wrote the members in, so a re-sent call is recognised as the same call.
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

function answer(body: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

// A tool error carries the API's error JSON ({error: {code, message, details}}, status), so a model reads the same code
// and status a REST client gets.
function toolError(e: ApiError): ToolResult {
  return { ...answer({ ...e }), isError: true };
}

function statusOf(result: ToolResult): number {
  return result.isError ? Number(result.structuredContent.status) : 200;
}

function run(op: Operation, input: unknown, caller: Caller, called: string, requestKey: string, deps: CallDeps) {
  try {
    return answer(
      op.handler(input, {
        caller,
        called,
        requestKey,
        operations: deps.operations,
        workOwnTask: deps.workOwnTask,
        ownTaskStep: deps.ownTaskStep,
      }),
    );
  } catch (e) {
    const failed = errorToApi(e);
    if (deps.onError) deps.onError(e, failed);
    return toolError(failed);
  }
}

interface Entry {
  // The fingerprint of the call's name and arguments.
  f: string;
  // The answer, once the first call finished; absent while it runs.
  a?: ToolResult;
}

function readEntry(cache: ReplayCache, key: string): Entry | null {
  const raw = cache.get(key);
  return raw ? (JSON.parse(raw) as Entry) : null;
}

export function callTool(id: RpcId, params: Record<string, unknown>, caller: Caller, deps: CallDeps): CallOutcome {
  const name = params.name;
  if (typeof name !== 'string' || name === '')
    return {
      error: {
        code: RPC.invalidParams,
        message: 'tools/call needs params.name, the tool’s name.',
        data: { field: 'name' },
      },
      called: 'mcp tools/call',
    };
  const shown = name.slice(0, 64);
  const called = `mcp tools/call ${shown}`;
  const args = params.arguments === undefined ? {} : params.arguments;
  if (!isObject(args))
    return {
      error: { code: RPC.invalidParams, message: 'params.arguments must be an object.', data: { field: 'arguments' } },
      called,
    };
  const op = deps.operations.filter((o) => isTool(o) && o.name === name)[0];
  if (!op)
    return {
      error: {
        code: RPC.invalidParams,
        message: `Unknown tool: ${echoInput(name, 'that name')}.`,
        data: { field: 'name' },
      },
      called,
    };
  if (!mayCall(op, caller.role))
    return { result: toolError(apiError(403, 'forbidden', `The ${caller.role} role cannot call ${op.name}.`)), called };
  // Arguments that miss the schema are a tool error (MCP 2025-11-25, SEP-1303), so the model reads which field.
  const input = op.input.safeParse(args);
  if (!input.success)
    return {
      result: toolError(
        apiError(400, 'invalid_input', `The arguments of ${op.name} are not valid.`, fieldIssues(input.error)),
      ),
      called,
    };
  const fingerprint = deps.hash(canonical({ name: op.name, arguments: args }));
  // Names the call across re-sent requests, and tells a different call that reuses an id from the first.
  const requestKey = `mcp:${caller.name}:${JSON.stringify(id)}:${fingerprint.slice(0, 16)}`;
  // Reading changes nothing, so a repeated read simply reads again (and fills no cache).
  if (!op.mutates) return { result: run(op, input.data, caller, called, requestKey, deps), called };
  const seconds = Math.min(MAX_REPLAY_SECONDS, Math.floor(deps.replaySeconds()));
  if (!(seconds > 0)) return { result: run(op, input.data, caller, called, requestKey, deps), called };
  return replayOrRun(op, input.data, caller, called, requestKey, { id, fingerprint, seconds }, deps);
}

function replayOrRun(
  op: Operation,
  input: unknown,
  caller: Caller,
  called: string,
  requestKey: string,
  call: { id: RpcId; fingerprint: string; seconds: number },
  deps: CallDeps,
): CallOutcome {
  const { cache } = deps;
  const key = `kaigi:mcp:${deps.hash(`${caller.name}\n${JSON.stringify(call.id)}`)}`;
  const deadline = deps.now() + WAIT_MS;
  for (;;) {
    const seen = readEntry(cache, key);
    // Nothing under this id, or another call that reuses it: this call acts.
    if (!seen || seen.f !== call.fingerprint) break;
    if (seen.a) return { result: seen.a, called: `${called} (replayed)` };
    if (deps.now() >= deadline)
      return {
        result: toolError(
          apiError(
            409,
            'request_in_progress',
            `The same ${op.name} call (JSON-RPC id ${echoInput(call.id, 'as sent')}) is still running; send it again in a moment.`,
          ),
        ),
        called: `${called} (still running)`,
      };
    deps.sleep(POLL_MS);
  }
  // Marked as running first, so a copy that arrives meanwhile waits for this answer instead of acting again.
  cache.put(key, JSON.stringify({ f: call.fingerprint }), Math.min(call.seconds, RUNNING_SECONDS));
  let result: ToolResult;
  try {
    result = run(op, input, caller, called, requestKey, deps);
  } catch (e) {
    cache.remove(key);
    throw e;
  }
  // A server-side failure (the lock was busy, an internal error) may succeed when sent again, so it is not kept.
  const kept =
    statusOf(result) < 500 && cache.put(key, JSON.stringify({ f: call.fingerprint, a: result }), call.seconds);
  if (!kept) cache.remove(key);
  return { result, called };
}
