// The web route registry: the router in-process with stand-in routes, and doGet/doPost through the built file.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation, type Caller } from '../../../../src/app/routes/route.js';
import { type CallInfo, type McpHandler, routeRequest, type WebRequest } from '../../../../src/app/routes/router.js';
import { ConfigError, NotFoundError, ValidationError } from '../../../../src/core/errors.js';
import { council, decline, ok, setAgent } from '../../../council-helpers.js';
import { newRuntime, records } from '../../../helpers.js';
import type { Runtime } from '../../../../runtime/runtime.js';

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
      error: {
        code: 'forbidden',
        message: 'The viewer role cannot call POST /things/{id}.',
        details: { roles: ['coordinator', 'admin'] },
      },
      status: 403,
    });
  });

  it('validates the input with the route schema and names each bad field', () => {
    const r = call({ method: 'POST', parameter: { path: '/things/7', token: 'a' }, contents: '{"n": 1.5, "note": 3}' });
    expect(r.status).toBe(400);
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.message).toMatch(/^The input of POST \/things\/\{id\} is not valid \((n|note): /);
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

describe('the router’s limits and log', () => {
  // Runs one request with limits and returns the answer and what the log was told.
  function limited(
    req: Partial<WebRequest> & { method: WebRequest['method'] },
    opts: { max?: number; admit?: (c: Caller) => any; mcp?: McpHandler } = {},
  ) {
    const done: CallInfo[] = [];
    const answer = routeRequest(
      { parameter: {}, ...req },
      {
        operations: ROUTES,
        authenticate: (t) => (t ? (callers[t] ?? null) : null),
        maxBodyBytes: () => opts.max ?? 1000,
        admit: opts.admit,
        mcp: opts.mcp,
        onDone: (i) => done.push(i),
      },
    ) as Record<string, any>;
    expect(done.length).toBe(1);
    return { answer, info: done[0] };
  }

  it('refuses a body over the limit in UTF-8 bytes with 413, before parsing it', () => {
    const at = (contents: string, max: number) =>
      limited({ method: 'POST', parameter: { path: '/things/7', token: 'a' }, contents }, { max });
    const body = JSON.stringify({ n: 1, note: 'é'.repeat(10) });
    expect(at(body, Buffer.byteLength(body)).answer.status).toBe(202);
    const over = at(body, Buffer.byteLength(body) - 1);
    expect(over.answer).toMatchObject({ status: 413, error: { code: 'payload_too_large' } });
    expect(over.info).toEqual({ client: '', call: 'POST /things/{id}', status: 413, code: 'payload_too_large' });
    expect(at(`{${'x'.repeat(50)}`, 10).answer.status).toBe(413);
  });

  it('asks admit once the caller is known: after 401, before 403 and validation', () => {
    const asked: string[] = [];
    const refuse = (c: Caller) => {
      asked.push(c.name);
      return { error: { code: 'rate_limited', message: 'slow down' }, status: 429 };
    };
    const post = (token?: string) =>
      limited(
        { method: 'POST', parameter: { path: '/things/7' }, contents: JSON.stringify({ token, n: 'bad' }) },
        { admit: refuse },
      );
    expect(post().answer.status).toBe(401);
    expect(post('v').answer.status).toBe(429);
    expect(post('a').info).toEqual({ client: 'ops', call: 'POST /things/{id}', status: 429, code: 'rate_limited' });
    expect(asked).toEqual(['viewer-client', 'ops']);
  });

  it('logs the route pattern, never the path as sent, and the MCP handler’s label', () => {
    const lost = limited({ method: 'GET', parameter: { path: '/x/kaigi_secret', token: 'a' } });
    expect(lost.info).toEqual({ client: '', call: 'GET (no route)', status: 404, code: 'not_found' });
    const ok = limited({ method: 'POST', parameter: { path: '/things/7' }, contents: '{"token":"a","n":1}' });
    expect(ok.info).toEqual({ client: 'ops', call: 'POST /things/{id}', status: 202, code: '' });
    const mcp: McpHandler = (_body, caller, meta) => {
      meta.called = `mcp tools/call set_thing by ${caller.name}`;
      meta.code = 'tool_error';
      return { jsonrpc: '2.0', id: 1, result: {} };
    };
    const rpc = limited(
      { method: 'POST', parameter: { path: '/mcp' }, contents: '{"token":"v","jsonrpc":"2.0","id":1}' },
      { mcp },
    );
    expect(rpc.answer).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(rpc.info).toEqual({
      client: 'viewer-client',
      call: 'mcp tools/call set_thing by viewer-client',
      status: 200,
      code: 'tool_error',
    });
    // The limits hold for /mcp too.
    const big = limited({ method: 'POST', parameter: { path: '/mcp' }, contents: 'x'.repeat(2000) }, { mcp });
    expect(big.info).toEqual({ client: '', call: 'mcp', status: 413, code: 'payload_too_large' });
    expect(limited({ method: 'POST', parameter: { path: '/mcp' }, contents: '{}' }, { mcp }).answer.status).toBe(401);
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
    expect(await body(rt.doGet({ path: '/tasks/DISC-1/steps' }))).toEqual({
      error: { code: 'not_found', message: 'No endpoint GET /tasks/DISC-1/steps.' },
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

  it('answers GET /status with the council, each agent, the queue, the budget and the rooms once set up', async () => {
    const rt = await council({ demo: false });
    rt.scriptProperties.set({ KAIGI_API_TOKENS: tokenList });
    const r = await body(rt.doGet({ path: '/status/', token: TOKEN, _: '12345' }));
    expect(r).toMatchObject({
      status: 200,
      agentName: 'kaigi',
      role: 'council',
      state: 'idle',
      currentTask: null,
      discussions: [],
      queue: { queued: 0, processing: 0, failed: 0, discussions_in_progress: 0 },
      budget: { tokens: 0, cost_usd: 0, token_budget: 2000000, cost_budget_usd: 20, over_budget: false },
      rooms: [],
      totalRooms: 0,
      totalOnlineUsers: 0,
      totalMessages: 0,
    });
    expect(r.availableTools).toContain('get_status');
    expect(r.availableTools).not.toContain('start_discussion');
    expect(r.agents.length).toBe(14);
    expect(r.agents.every((a: { status: string }) => a.status === 'idle')).toBe(true);
    expect(r.agents[0]).toEqual({
      agent_id: 'analyst',
      name: 'Analyst',
      name_ja: '分析特化',
      group: 'specialist',
      active: true,
      model: 'rules:default',
      status: 'idle',
      current_discussion: null,
      error: null,
    });
  });

  it('shows in GET /status the agents speaking in a discussion, and an agent whose model has no key', async () => {
    const rt = await council();
    rt.scriptProperties.set({ KAIGI_API_TOKENS: tokenList });
    await setAgent(rt, 'legal', 'model', 'openai:gpt-4o-mini');
    ok(await rt.run('startDiscussion', [decline('tanaka')], { kind: 'server' }));
    const status = async () => body(rt.doGet({ path: '/status', token: TOKEN }));
    expect((await status()).queue).toMatchObject({ queued: 1, discussions_in_progress: 0 });
    // A tick whose time budget (270 s) runs out once it has claimed the task: the discussion opens, then waits.
    let moved = false;
    const tick = await rt.run('tick', [], {
      kind: 'trigger',
      onCall: (_n, op) => {
        if (op === 'ss.flush' && !moved) rt.clock.advance(280_000);
        if (op === 'ss.flush') moved = true;
      },
    });
    ok(tick);
    const r = await status();
    const busy = r.agents.filter((a: { status: string }) => a.status === 'busy');
    expect(r.state).toBe('busy');
    expect(r.discussions.length).toBe(1);
    const { discussion_id: id, phase } = r.discussions[0];
    expect(id).toMatch(/^DISC-/);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((a: { current_discussion: string }) => a.current_discussion === id)).toBe(true);
    expect(phase).toBeGreaterThanOrEqual(1);
    const legal = r.agents.find((a: { agent_id: string }) => a.agent_id === 'legal');
    expect(legal.status).toBe('error');
    expect(legal.error).toMatch(/openai/);
    expect(r.totalRooms).toBeGreaterThanOrEqual(1);
    expect(r.rooms.map((x: { name: string }) => x.name)).toContain(id);
    // roomName narrows the rooms part to one room; an unknown one is the rooms' own error.
    const one = await body(rt.doGet({ path: '/status', token: TOKEN, roomName: id }));
    expect(one).toMatchObject({ status: 200, totalRooms: 1, state: 'busy' });
    expect(one.rooms.map((x: { name: string }) => x.name)).toEqual([id]);
    const none = await body(rt.doGet({ path: '/status', token: TOKEN, roomName: 'no-such-room' }));
    expect(none.error.code).toBe('ROOM_NOT_FOUND');
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
