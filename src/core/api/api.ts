// The web API's envelope: roles, path patterns, the token list, and the JSON error format ({error: {code, message,
// details}} with the HTTP status).
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import { pathOf, unknownKeysMessage } from './input-echo.js';
import {
  BusyError,
  ConfigError,
  ConflictError,
  ForbiddenError,
  KaigiError,
  NotFoundError,
  RateLimitError,
  TooLargeError,
  ValidationError,
} from '../errors.js';

const ROLES = ['viewer', 'worker', 'coordinator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const ALL_ROLES: readonly Role[] = ROLES;

export interface ApiError {
  error: { code: string; message: string; details?: unknown };
  status: number;
}

export function apiError(status: number, code: string, message: string, details?: unknown): ApiError {
  return details === undefined ? { error: { code, message }, status } : { error: { code, message, details }, status };
}

// Compares two equal-purpose strings without stopping at the first difference.
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

export type Method = 'GET' | 'POST';

// The UTF-8 length of a string, counted without encoding it (Apps Script has no TextEncoder): what a body's size
// limit is about. A surrogate pair is one 4-byte character; a lone surrogate is written as U+FFFD (3 bytes).
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

// The MCP methods this server knows (src/app/mcp/server.ts) and the notifications a client sends it.
const MCP_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'server/discover',
  'notifications/initialized',
  'notifications/cancelled',
];
const MCP_FIXED = ['mcp', 'mcp (invalid request)', 'mcp (response)'];
const MCP_SUFFIXES = [' (replayed)', ' (still running)'];

// What the API log records as the call: only names Kaigi knows — a route pattern, `METHOD (no route)`, an MCP
// method or a tool of the registry — and `unknown` for anything else, since an MCP method or tool name is the
// client's text (a token pasted into it must never reach a cell).
export function callLabel(called: string, routes: readonly string[], tools: readonly string[]): string {
  let base = called;
  let suffix = '';
  for (const s of MCP_SUFFIXES)
    if (base.endsWith(s)) {
      base = base.slice(0, -s.length);
      suffix = s;
    }
  const known =
    routes.indexOf(base) >= 0 ||
    base === 'GET (no route)' ||
    base === 'POST (no route)' ||
    MCP_FIXED.indexOf(base) >= 0 ||
    MCP_METHODS.some((m) => base === `mcp ${m}`) ||
    tools.some((t) => base === `mcp tools/call ${t}`);
  return known ? base + suffix : 'unknown';
}

function normalizePath(path: string): string {
  return path.replace(/\/+$/, '') || '/';
}

export function routeKey(method: Method, path: string): string {
  return `${method} ${normalizePath(path)}`;
}

// Matches a path against a pattern such as /tasks/{id}/result; returns the {params} or null.
// Apps Script hands the path parameter already decoded, so segments are compared as they are.
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = normalizePath(pattern).split('/');
  const got = normalizePath(path).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const m = /^\{(\w+)\}$/.exec(want[i]);
    if (m) {
      if (got[i] === '') return null;
      params[m[1]] = got[i];
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

export interface FieldIssue {
  field: string;
  code: string;
  message: string;
}

// zod's issues as field-level details of a 400 answer. An unknown key is named only when it may be repeated
// (src/core/api/input-echo.ts): zod's own message quotes it whole, and a JSON body sent as a form is one such key.
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    field: pathOf(i.path),
    code: i.code,
    message: i.code === 'unrecognized_keys' ? unknownKeysMessage(i.keys) : i.message,
  }));
}

// Any error a handler throws, as the API's JSON error: the KaigiError hierarchy says which status it is.
export function errorToApi(e: unknown): ApiError {
  if (e instanceof ValidationError) {
    const issues = e.fields ?? (e as { issues?: unknown }).issues;
    return apiError(400, e.code, e.message, Array.isArray(issues) ? issues : undefined);
  }
  if (e instanceof ForbiddenError) return apiError(403, e.code, e.message);
  if (e instanceof NotFoundError) return apiError(404, e.code, e.message);
  if (e instanceof ConflictError) return apiError(409, e.code, e.message);
  if (e instanceof TooLargeError) return apiError(413, e.code, e.message);
  if (e instanceof RateLimitError)
    return apiError(429, e.code, e.message, { retry_after_seconds: e.retryAfterSeconds });
  if (e instanceof BusyError) return apiError(503, e.code, e.message, { retry_after_seconds: e.retryAfterSeconds });
  if (e instanceof ConfigError) return apiError(500, e.code, e.message, e.key ? { key: e.key } : undefined);
  if (e instanceof KaigiError) return apiError(500, e.code, e.message);
  const message = e instanceof Error ? e.message : String(e);
  return apiError(500, 'internal', `Internal error: ${message}`);
}

// ---- API clients ----------------------------------------------------------------------------

export interface TokenRecord {
  hash: string;
  role: Role;
  name: string;
  created_at?: string;
}

const tokenListSchema = lazy(() =>
  z.array(
    z.object({
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      role: z.enum(ROLES),
      name: z.string(),
      created_at: z.string().optional(),
    }),
  ),
);

// The token list kept in a Script Property. Missing means no clients yet; anything unusable is a ConfigError
// naming the property and what is wrong with it, never its content (JSON.parse's own message quotes it).
export function parseTokenList(raw: string | null, property: string): TokenRecord[] {
  if (raw === null || raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(`The ${property} Script Property is not valid JSON.`, property);
  }
  const parsed = tokenListSchema().safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? `entry ${i.path.map(String).join('.')}` : 'the value'} (${i.code})`)
      .join(', ');
    throw new ConfigError(
      `The ${property} Script Property is not a list of { hash, role, name }: ${where} is not usable.`,
      property,
    );
  }
  return parsed.data;
}
