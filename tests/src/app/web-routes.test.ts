// The web route registry: the router in-process with stand-in routes, and doGet/doPost through the built file.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type Caller } from '../../../src/app/routes/route.js';
import { routeRequest, type WebRequest } from '../../../src/app/routes/router.js';
import { ConfigError, NotFoundError, ValidationError } from '../../../src/core/errors.js';
import { council, ok } from '../../council-helpers.js';
import { newRuntime, records } from '../../helpers.js';
import type { Runtime } from '../../../runtime/runtime.js';

// ---- the router, in-process -----------------------------------------------------------------------

const callers: Record<string, Caller> = {
  v: { name: 'viewer-client', role: 'viewer' },
  a: { name: 'ops', role: 'admin' },
};

const ROUTES = [
  defineOperation({
    name: 'set_thing',
    description: 'Sets a thing.',
    mutates: true,
    tool: false,
    http: { method: 'POST', path: '/things/{id}' },
    roles: ['coordinator', 'admin'],
    input: z.object({ id: z.string(), n: z.number().int(), note: z.string().optional() }),
    handler: (input, ctx) => ({ status: 202, input, by: ctx.caller.name, called: ctx.called }),
  }),
  defineOperation({
    name: 'fail',
    description: 'Fails as asked.',
    mutates: false,
    tool: false,
    http: { method: 'GET', path: '/fail/{how}' },
    roles: ['viewer', 'admin'],
    input: z.object({ how: z.string() }),
    handler: ({ how }) => {
      if (how === 'validation') throw new ValidationError('the note is too long');
      if (how === 'missing') throw new NotFoundError('discussion DISC-9 was not found');
      if (how === 'config') throw new ConfigError('The Settings row x is broken.', 'x');
      throw new Error('boom');
    },
  }),
];

function call(req: Partial<WebRequest> & { method: WebRequest['method'] }, seen: unknown[] = []) {
  return routeRequest(
    { parameter: {}, ...req },
    {
      operations: ROUTES,
      authenticate: (t) => (t ? (callers[t] ?? null) : null),
      onError: (e) => seen.push(e),
    },
  ) as Record<string, any>;
}

describe('the router', () => {
  it('answers 404 naming the method and path, before it asks for a token', () => {
    expect(call({ method: 'GET', parameter: { path: '/things/1' } })).toEqual({
      error: { code: 'not_found', message: 'No endpoint GET /things/1.' },
      status: 404,
    });
  });

  it('answers 401 without a known token and 403 for a role the route does not allow', () => {
    const post = (token?: string) =>
      call({ method: 'POST', parameter: { path: '/things/7' }, contents: JSON.stringify({ token, n: 1 }) });
    expect(post()).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(post('nope')).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(post('v')).toEqual({
      error: { code: 'forbidden', message: 'The viewer role cannot call POST /things/7.' },
      status: 403,
    });
  });

  it('validates the input with the route schema and names each bad field', () => {
    const r = call({ method: 'POST', parameter: { path: '/things/7', token: 'a' }, contents: '{"n": 1.5, "note": 3}' });
    expect(r.status).toBe(400);
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['n', 'note']);
    for (const d of r.error.details) expect(typeof d.message).toBe('string');
  });

  it('runs the handler with query, body and path params (the path wins), never the token', () => {
    const r = call({
      method: 'POST',
      parameter: { path: '/things/7/', note: 'from query' },
      contents: JSON.stringify({ token: 'a', n: 2, id: 'from body' }),
    });
    expect(r).toEqual({
      status: 202,
      input: { id: '7', n: 2, note: 'from query' },
      by: 'ops',
      called: 'POST /things/7',
    });
  });

  it('rejects a body that is not JSON or not an object with 400 invalid_json', () => {
    for (const contents of ['{nope', '[1, 2]', '"text"'])
      expect(call({ method: 'POST', parameter: { path: '/things/7' }, contents })).toMatchObject({
        status: 400,
        error: { code: 'invalid_json' },
      });
  });

  it('maps errors of the KaigiError hierarchy and passes each to onError', () => {
    const seen: unknown[] = [];
    const get = (how: string) => call({ method: 'GET', parameter: { path: `/fail/${how}`, token: 'v' } }, seen);
    expect(get('validation')).toEqual({
      error: { code: 'invalid_input', message: 'the note is too long' },
      status: 400,
    });
    expect(get('missing')).toMatchObject({ status: 404, error: { code: 'not_found' } });
    expect(get('config')).toEqual({
      error: { code: 'invalid_configuration', message: 'The Settings row x is broken.', details: { key: 'x' } },
      status: 500,
    });
    expect(get('other')).toEqual({ error: { code: 'internal', message: 'Internal error: boom' }, status: 500 });
    expect(seen.map((e) => (e as Error).name)).toEqual(['ValidationError', 'NotFoundError', 'ConfigError', 'Error']);
  });
});

// ---- doGet/doPost through the built file -------------------------------------------------------

const TOKEN = 'viewer-token-0123456789';
const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
const tokenList = JSON.stringify([{ hash: sha(TOKEN), role: 'viewer', name: 'dashboard' }]);

async function body(reply: Promise<{ body: string; mimeType: string }>): Promise<Record<string, any>> {
  const r = await reply;
  expect(r.mimeType).toBe('application/json');
  return JSON.parse(r.body);
}

describe('the web app', () => {
  it('answers 404, invalid_json and 401 before set-up, and GET /status says it is not set up', async () => {
    const rt = newRuntime({ scriptProperties: { KAIGI_API_TOKENS: tokenList } });
    expect(await body(rt.doGet({ path: '/tasks/DISC-1' }))).toEqual({
      error: { code: 'not_found', message: 'No endpoint GET /tasks/DISC-1.' },
      status: 404,
    });
    expect(await body(rt.doPost({ path: '/status' }, '{not json'))).toEqual({
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
      status: 400,
    });
    expect(await body(rt.doGet({ path: '/status' }))).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect(await body(rt.doGet({ path: '/status', token: 'wrong' }))).toMatchObject({ status: 401 });
    expect(await body(rt.doGet({ path: '/status', token: TOKEN }))).toEqual({
      error: { code: 'not_set_up', message: 'Kaigi has not been set up in its spreadsheet yet.' },
      status: 409,
    });
  });

  it('answers GET /status with every tab once set up', async () => {
    const rt = await council({ demo: false });
    rt.scriptProperties.set({ KAIGI_API_TOKENS: tokenList });
    const r = await body(rt.doGet({ path: '/status/', token: TOKEN, _: '12345' }));
    expect(Object.keys(r)).toEqual(['status', 'tabs']);
    expect(r.status).toBe(200);
    expect(r.tabs.length).toBe(22);
    expect(r.tabs.every((t: { present: boolean }) => t.present)).toBe(true);
    expect(r.tabs[0]).toEqual({ tab: expect.any(String), present: true });
  });

  it('answers 500 invalid_configuration naming a malformed token list, never its content', async () => {
    const rt: Runtime = await council({ demo: false });
    const secretish = '[{"hash": "s3cr3t-hash-content", "role": "viewer"';
    rt.scriptProperties.set({ KAIGI_API_TOKENS: secretish });
    const r = await body(rt.doGet({ path: '/status', token: TOKEN }));
    expect(r.status).toBe(500);
    expect(r.error.code).toBe('invalid_configuration');
    expect(r.error.message).toMatch(/KAIGI_API_TOKENS/);
    expect(r.error.details).toEqual({ key: 'KAIGI_API_TOKENS' });
    expect(JSON.stringify(r)).not.toContain('s3cr3t');
    // Valid JSON of the wrong shape is named the same way.
    rt.scriptProperties.set({ KAIGI_API_TOKENS: JSON.stringify([{ hash: sha(TOKEN), role: 'owner', name: 'x' }]) });
    const shape = await body(rt.doGet({ path: '/status', token: TOKEN }));
    expect(shape).toMatchObject({ status: 500, error: { code: 'invalid_configuration' } });
    expect(shape.error.message).toMatch(/KAIGI_API_TOKENS.*entry 0\.role/);
    expect(records(rt, 'inbox').length).toBe(2);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('says in the answer when no person could be told (not set up yet)', async () => {
    const rt = newRuntime({ scriptProperties: { KAIGI_API_TOKENS: '{oops' } });
    const r = await body(rt.doGet({ path: '/status', token: TOKEN }));
    expect(r).toMatchObject({
      status: 500,
      error: { code: 'invalid_configuration', details: { key: 'KAIGI_API_TOKENS' } },
    });
    expect(r.error.details.notice).toMatch(/No person could be told: .*set up/);
  });
});
