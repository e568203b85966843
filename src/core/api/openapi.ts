// The web API as an OpenAPI 3.1 document, generated from the operation registry's zod schemas (never written by
// hand): each route's parameters and body, who may call it, its errors in the API's error format, and an example.
import { z } from '../zod.js';
import { lazy } from '../lazy.js';
import type { Method, Role } from './api.js';

// What the document reads of an operation (src/app/routes/route.ts's Operation has these fields).
export interface DescribedOperation {
  name: string;
  description: string;
  roles: readonly Role[];
  input: z.ZodType;
  output?: z.ZodType;
  example?: Record<string, unknown>;
  same_as?: string;
  mutates: boolean;
  tool: boolean;
  http?: { method: Method; path: string };
}

type Json = Record<string, unknown>;

// The API's error: {error: {code, message, details}} (the agent API's shape) with the HTTP status beside it.
const errorBody = lazy(() =>
  z
    .object({
      error: z.object({
        code: z.string().describe('What went wrong, for a program: invalid_input, unauthorized, forbidden, …'),
        message: z.string().describe('What went wrong, for a person'),
        details: z.unknown().optional().describe('Field issues, limits, retry_after_seconds'),
      }),
      status: z.number().int().describe('The HTTP status (the web app itself always answers HTTP 200)'),
    })
    .describe('An error: {error: {code, message, details}} with the HTTP status beside it'),
);

// A Kaigi answer: the HTTP status in the body as `status`, the route's fields beside it.
const kaigiBody = lazy(() =>
  z.object({ status: z.number().int().describe('The HTTP status: 200, or 202 for work queued') }).catchall(z.unknown()),
);

const ERRORS: Record<string, { code: string; why: string }> = {
  '400': { code: 'invalid_input', why: 'The input is not valid (details name each field), or the body is not JSON' },
  '401': { code: 'unauthorized', why: 'No token, or not a token of an API client' },
  '403': { code: 'forbidden', why: 'The client’s role may not call this route' },
  '404': { code: 'not_found', why: 'The task, discussion, room or order is not there' },
  '409': { code: 'conflict', why: 'The state does not allow it now (or the workbook is not set up)' },
  '413': { code: 'payload_too_large', why: 'The body is over Settings api.max_body_bytes' },
  '429': { code: 'rate_limited', why: 'Over the client’s rate limit or daily budget; details say when to retry' },
  '500': { code: 'internal', why: 'A configuration problem (told to a person in the Inbox) or a fault' },
  '503': { code: 'busy', why: 'The script lock stayed busy; details say when to retry' },
};

// zod gives every int() the bounds of a safe integer; they say nothing to a reader and only lengthen the document.
function dropSafeIntegerBounds(ctx: { jsonSchema: Json }): void {
  const s = ctx.jsonSchema;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
}

// A zod schema as the document's JSON Schema (2020-12, OpenAPI 3.1's dialect), as it is accepted (io 'input').
function schemaOf(t: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const s = z.toJSONSchema(t, { io, unrepresentable: 'any', override: dropSafeIntegerBounds }) as Json;
  delete s.$schema;
  return s;
}

function errorsFor(op: DescribedOperation, path: string): string[] {
  const codes = ['400', '401', '403'];
  if (path.indexOf('{') >= 0 || op.mutates) codes.push('404', '409');
  if (op.http?.method === 'POST') codes.push('413');
  codes.push('429', '500', '503');
  return codes;
}

function pathParams(path: string): string[] {
  const out: string[] = [];
  const re = /\{(\w+)\}/g;
  for (let m = re.exec(path); m; m = re.exec(path)) out.push(m[1]);
  return out;
}

// The input's properties split into path parameters, query parameters (GET) or the JSON body (POST).
function requestOf(op: DescribedOperation, path: string): Json {
  const schema = schemaOf(op.input);
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = (schema.required ?? []) as string[];
  const inPath = pathParams(path);
  const parameters: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name] ?? { type: 'string' },
  }));
  const rest = Object.keys(props).filter((k) => inPath.indexOf(k) < 0);
  const example = op.example ?? {};
  const out: Json = {};
  if (op.http?.method === 'GET') {
    for (const name of rest)
      parameters.push({
        name,
        in: 'query',
        required: required.indexOf(name) >= 0,
        schema: props[name],
        ...(name in example ? { example: example[name] } : {}),
      });
  } else {
    const body: Json = { ...schema, properties: {} as Record<string, Json> };
    for (const k of rest) (body.properties as Record<string, Json>)[k] = props[k];
    body.required = required.filter((k) => inPath.indexOf(k) < 0);
    const bodyExample: Json = {};
    for (const k of Object.keys(example)) if (inPath.indexOf(k) < 0) bodyExample[k] = example[k];
    out.requestBody = {
      required: true,
      content: {
        'application/json': { schema: body, ...(op.example ? { example: bodyExample } : {}) },
      },
    };
  }
  if (parameters.length) out.parameters = parameters;
  return out;
}

function operationOf(op: DescribedOperation, path: string): Json {
  const method = op.http!.method;
  const ok = method === 'POST' && !op.output && op.mutates ? '200 or 202' : '200';
  const responses: Json = {
    '200': {
      description: `Done (${ok}${op.output ? '' : ' in the body’s status'})`,
      content: { 'application/json': { schema: op.output ? schemaOf(op.output, 'output') : schemaOf(kaigiBody()) } },
    },
  };
  for (const code of errorsFor(op, path))
    responses[code] = {
      description: `${ERRORS[code].why} (e.g. ${ERRORS[code].code})`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  const seed = op.same_as ? ` The agent API’s own route: answers as ${op.same_as}, in that API’s bodies.` : '';
  return {
    operationId: op.name,
    summary: op.description,
    description: `Roles: ${op.roles.join(', ')}.${op.tool ? ` Also the MCP tool ${op.name}.` : ''}${seed}`,
    tags: [op.same_as ? 'seed-002' : (path.split('/')[1] ?? '')],
    'x-kaigi-roles': op.roles,
    ...(op.tool ? { 'x-kaigi-mcp-tool': op.name } : {}),
    ...(op.same_as ? { 'x-kaigi-same-as': op.same_as } : {}),
    ...requestOf(op, path),
    responses,
  };
}

export interface DocumentInfo {
  version: string;
  // Where the document says requests go: a kaigi gateway, or nothing known.
  server?: string;
}

export function openApiDocument(operations: readonly DescribedOperation[], info: DocumentInfo): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    if (!op.http) continue;
    const path = op.http.path;
    const item = paths[path] ?? {};
    item[op.http.method.toLowerCase()] = operationOf(op, path);
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kaigi web API',
      version: info.version,
      description:
        'The council’s web API, generated from its route registry. Through `kaigi gateway` each path is a real path ' +
        'and `Authorization: Bearer` is accepted. On the Apps Script web app itself, the path travels as ' +
        '`?path=/tasks`, the token as `token` in the query (GET) or the JSON body (POST), and every answer is HTTP 200 ' +
        'with the real status in the body’s `status` (the agent API’s /agent routes answer in their own bodies instead).',
    },
    ...(info.server ? { servers: [{ url: info.server }] } : {}),
    security: [{ bearer: [] }, { token: [] }],
    paths,
    components: {
      schemas: { Error: schemaOf(errorBody(), 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API client’s token, through kaigi gateway' },
        token: { type: 'apiKey', in: 'query', name: 'token', description: 'An API client’s token on the web app' },
      },
    },
  };
}
