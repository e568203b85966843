// The MCP server in-process, with stand-in operations, a fake cache and a fake clock: protocol, tools and replays.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallDeps, ReplayCache } from '../../../src/app/mcp/call.js';
import { SERVER_VERSION } from '../../../src/app/mcp/protocol.js';
import { createMcpServer } from '../../../src/app/mcp/server.js';
import { type Caller, defineOperation } from '../../../src/app/routes/route.js';
import type { McpMeta } from '../../../src/app/routes/router.js';
import { ConflictError } from '../../../src/core/errors.js';

const admin: Caller = { name: 'ops', role: 'admin' };
const viewer: Caller = { name: 'watcher', role: 'viewer' };

// A cache with CacheService's expiry on the fake clock; `limit` plays the 100 KB value limit.
function fakeCache(now: () => number, limit = Infinity) {
  const items = new Map<string, { value: string; until: number }>();
  const cache: ReplayCache & { items: typeof items } = {
    items,
    get: (k) => {
      const e = items.get(k);
      return e && e.until > now() ? e.value : null;
    },
    put: (k, value, seconds) => {
      if (value.length > limit) return false;
      items.set(k, { value, until: now() + seconds * 1000 });
      return true;
    },
    remove: (k) => void items.delete(k),
  };
  return cache;
}

function setup(opts: { replay?: number; limit?: number; onSleep?: () => void } = {}) {
  let clock = 1_000_000;
  const things: string[] = [];
  const seen: { called: string; requestKey: string }[] = [];
  const errors: unknown[] = [];
  const operations = [
    defineOperation({
      name: 'make_thing',
      description: 'Makes a thing.',
      mutates: true,
      tool: true,
      roles: ['coordinator', 'admin'],
      input: z.object({ name: z.string().min(1), size: z.number().int().default(1) }),
      handler: (input, ctx) => {
        seen.push({ called: ctx.called, requestKey: ctx.requestKey });
        if (things.includes(input.name)) throw new ConflictError('That thing exists.', 'THING_ALREADY_EXISTS');
        things.push(input.name);
        return { made: input.name, size: input.size, count: things.length };
      },
    }),
    defineOperation({
      name: 'count_things',
      description: 'Counts things.',
      mutates: false,
      tool: true,
      roles: ['viewer', 'worker', 'coordinator', 'admin'],
      input: z.object({}),
      handler: () => ({ count: things.length }),
    }),
    defineOperation({
      name: 'break_things',
      description: 'Fails inside.',
      mutates: true,
      tool: true,
      roles: ['admin'],
      input: z.object({}),
      handler: () => {
        things.push('half');
        throw new Error('the disk is on fire');
      },
    }),
    defineOperation({
      name: 'rest_only',
      description: 'Not a tool.',
      mutates: false,
      tool: false,
      http: { method: 'GET', path: '/rest' },
      roles: ['admin'],
      input: z.object({}),
      handler: () => ({}),
    }),
  ];
  const cache = fakeCache(() => clock, opts.limit);
  const deps: CallDeps = {
    operations,
    cache,
    replaySeconds: () => opts.replay ?? 21600,
    hash: (t) => createHash('sha256').update(t).digest('hex'),
    sleep: (ms) => {
      clock += ms;
      opts.onSleep?.();
    },
    now: () => clock,
    onError: (e) => errors.push(e),
  };
  const handler = createMcpServer(deps);
  const send = (body: unknown, caller: Caller = admin) => {
    const meta: McpMeta = { called: 'mcp' };
    const answer = handler(body, caller, meta) as Record<string, any> | null;
    return { answer, called: meta.called, status: meta.status, code: meta.code };
  };
  const call = (id: number | string, name: string, args?: unknown, caller: Caller = admin) =>
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, caller);
  return {
    send,
    call,
    things,
    seen,
    errors,
    cache,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

describe('the MCP protocol', () => {
  it('negotiates the version the SDK sends, else answers its newest, with tools as its only capability', () => {
    const { send } = setup();
    const init = (protocolVersion: unknown) =>
      send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {} } });
    const r = init(LATEST_PROTOCOL_VERSION);
    expect(r.called).toBe('mcp initialize');
    expect(r.answer).toMatchObject({
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'kaigi', version: SERVER_VERSION },
      },
    });
    expect(r.answer!.result.instructions).toMatch(/council of AI agents/);
    for (const v of SUPPORTED_PROTOCOL_VERSIONS.filter((x) => x !== '2024-10-07'))
      expect(init(v).answer!.result.protocolVersion).toBe(v);
    expect(init('1999-01-01').answer!.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(init(undefined).answer!.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(SERVER_VERSION).toBe(pkg.version);
  });

  it('answers ping and server/discover, and -32601 for a method it does not have', () => {
    const { send } = setup();
    expect(send({ jsonrpc: '2.0', id: 'p', method: 'ping' }).answer).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    const d = send({ jsonrpc: '2.0', id: 2, method: 'server/discover' });
    expect(d.answer!.result).toMatchObject({
      supportedVersions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'kaigi' },
    });
    const r = send({ jsonrpc: '2.0', id: 3, method: 'resources/list' });
    expect(r.answer).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: resources/list.' },
    });
    expect([r.called, r.status, r.code]).toEqual(['mcp resources/list', 404, 'method_not_found']);
  });

  it('answers nothing to notifications and to a client’s responses', () => {
    const { send } = setup();
    expect(send({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({
      answer: null,
      called: 'mcp notifications/initialized',
      status: undefined,
      code: undefined,
    });
    expect(send({ jsonrpc: '2.0', id: 5, result: {} }).answer).toBeNull();
  });

  it('answers -32600 to a message that is not JSON-RPC 2.0, keeping the id when it can be read', () => {
    const { send } = setup();
    const bad = (body: unknown) => send(body).answer as Record<string, any>;
    expect(bad({ id: 1, method: 'ping' })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(bad({ jsonrpc: '2.0', id: 1, method: 7 })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(bad({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(bad({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(bad({ jsonrpc: '2.0', id: 4, method: 'ping', params: [1] })).toMatchObject({
      id: 4,
      error: { code: -32600, message: expect.stringMatching(/params/) },
    });
    expect(bad([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('MCP tools', () => {
  it('lists the tools the caller’s role may call, with input schemas generated from zod', () => {
    const { send } = setup();
    const list = (caller: Caller) =>
      (send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, caller).answer!.result.tools as any[]).map((t) => t.name);
    expect(list(admin)).toEqual(['make_thing', 'count_things', 'break_things']);
    expect(list(viewer)).toEqual(['count_things']);
    const tools = send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).answer!.result.tools as any[];
    expect(tools[0]).toEqual({
      name: 'make_thing',
      title: 'Make thing',
      description: 'Makes a thing.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer', default: 1 } },
        required: ['name'],
      },
      annotations: { readOnlyHint: false },
      _meta: { 'kaigi/roles': ['coordinator', 'admin'] },
    });
    expect(tools[1].annotations).toEqual({ readOnlyHint: true });
  });

  it('calls a tool with its context and answers the result as text and as structured content', () => {
    const { call, seen } = setup();
    const r = call(7, 'make_thing', { name: 'chair' });
    expect([r.called, r.status, r.code]).toEqual(['mcp tools/call make_thing', undefined, undefined]);
    const body = { made: 'chair', size: 1, count: 1 };
    expect(r.answer).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body },
    });
    expect(seen[0].called).toBe('mcp tools/call make_thing');
    expect(seen[0].requestKey).toMatch(/^mcp:ops:7:[0-9a-f]{16}$/);
    // Missing arguments are an empty object.
    expect(call(8, 'count_things').answer!.result.structuredContent).toEqual({ count: 1 });
  });

  it('answers -32602 for an unknown tool or malformed params, and a tool error naming the bad field', () => {
    const { call, send, things } = setup();
    const unknown = call(1, 'rest_only', {});
    expect([unknown.status, unknown.code]).toEqual([400, 'invalid_params']);
    expect(unknown.answer).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Unknown tool: rest_only.', data: { field: 'name' } },
    });
    expect(send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }).answer!.error).toMatchObject({
      code: -32602,
      data: { field: 'name' },
    });
    expect(call(3, 'make_thing', [1]).answer!.error).toMatchObject({ code: -32602, data: { field: 'arguments' } });
    const bad = call(4, 'make_thing', { name: '', size: 1.5 }).answer!.result;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      status: 400,
      error: {
        code: 'invalid_input',
        details: [
          { field: 'name', code: 'too_small' },
          { field: 'size', code: 'invalid_type' },
        ],
      },
    });
    expect(JSON.parse(bad.content[0].text)).toEqual(bad.structuredContent);
    expect(things).toEqual([]);
  });

  it('answers a role the tool does not allow, and an operation’s KaigiError, as tool errors in the web API’s error format', () => {
    const { call, errors } = setup();
    const refusal = call(1, 'make_thing', { name: 'x' }, viewer);
    // The API log shows the tool error's status and code, though the JSON-RPC answer is a result.
    expect([refusal.status, refusal.code]).toEqual([403, 'forbidden']);
    const forbidden = refusal.answer!.result;
    expect(forbidden).toMatchObject({
      isError: true,
      structuredContent: {
        status: 403,
        error: { code: 'forbidden', message: 'The viewer role cannot call make_thing.' },
      },
    });
    call(2, 'make_thing', { name: 'x' });
    const exists = call(3, 'make_thing', { name: 'x' }).answer!.result;
    expect(exists).toMatchObject({
      isError: true,
      structuredContent: { status: 409, error: { code: 'THING_ALREADY_EXISTS', message: 'That thing exists.' } },
    });
    expect(errors).toHaveLength(1);
    const broken = call(4, 'break_things', {}).answer!.result;
    expect(broken.structuredContent).toEqual({
      status: 500,
      error: { code: 'internal', message: 'Internal error: the disk is on fire' },
    });
    expect(JSON.stringify(broken)).not.toMatch(/at .*\.ts/);
  });

  it('answers -32603 with the web API’s error JSON when the server itself fails, never a stack trace', () => {
    const { send } = setup();
    const h = createMcpServer({
      operations: [
        defineOperation({
          name: 'odd',
          description: 'Takes a string.',
          mutates: false,
          tool: true,
          roles: ['admin'],
          input: z.string(),
          handler: () => ({}),
        }),
      ],
      cache: fakeCache(() => 0),
      replaySeconds: () => 0,
      hash: (t) => t,
      sleep: () => {},
      now: () => 0,
    });
    const r = h({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, admin, { called: '' }) as Record<string, any>;
    expect(r.error).toMatchObject({ code: -32603, data: { status: 500, error: { code: 'internal' } } });
    expect(r.error.message).toMatch(/odd tool is not a zod object/);
    const invalid = send({ jsonrpc: '2.0', id: 1, method: 5 });
    expect([invalid.called, invalid.status, invalid.code]).toEqual(['mcp (invalid request)', 400, 'invalid_request']);
    expect(send({ jsonrpc: '2.0', id: 1, method: 'ping' }).answer!.result).toEqual({});
  });
});

describe('MCP replays', () => {
  it('answers a re-sent tools/call (same token, id and arguments) with the first answer, acting once', () => {
    const { call, things } = setup();
    const first = call(11, 'make_thing', { name: 'table', size: 2 });
    const again = call(11, 'make_thing', { size: 2, name: 'table' });
    expect(again.answer).toEqual(first.answer);
    expect(again.called).toBe('mcp tools/call make_thing (replayed)');
    expect(things).toEqual(['table']);
    // An answer that was an error is replayed too: the client sees what the first attempt saw.
    const refused = call(12, 'make_thing', { name: 'table' });
    expect(call(12, 'make_thing', { name: 'table' }).answer).toEqual(refused.answer);
  });

  it('acts again for another call reusing the id, another client, a read, an expired or a failed answer', () => {
    const { call, things, tick, cache } = setup({ replay: 60 });
    call(1, 'make_thing', { name: 'a' });
    call(1, 'make_thing', { name: 'b' });
    expect(things).toEqual(['a', 'b']);
    call(1, 'make_thing', { name: 'c' }, { name: 'other', role: 'coordinator' });
    expect(things).toEqual(['a', 'b', 'c']);
    // Reads are never kept: a repeated read reads again.
    const before = cache.items.size;
    call(2, 'count_things', {});
    call(2, 'count_things', {});
    expect(cache.items.size).toBe(before);
    // Past api.replay_seconds the same id acts again (here: refused, since the thing exists).
    tick(61_000);
    expect(call(1, 'make_thing', { name: 'b' }).answer!.result.structuredContent.error.code).toBe(
      'THING_ALREADY_EXISTS',
    );
    // A server-side failure is not kept, so sending it again may succeed.
    call(3, 'break_things', {});
    call(3, 'break_things', {});
    expect(things.filter((t) => t === 'half')).toHaveLength(2);
  });

  it('acts every time when api.replay_seconds is 0, and when the answer is too large to keep', () => {
    const off = setup({ replay: 0 });
    off.call(1, 'make_thing', { name: 'a' });
    expect(off.call(1, 'make_thing', { name: 'a' }).answer!.result.isError).toBe(true);
    const small = setup({ limit: 20 });
    small.call(1, 'make_thing', { name: 'a' });
    expect(small.call(1, 'make_thing', { name: 'a' }).answer!.result.isError).toBe(true);
    expect(small.cache.items.size).toBe(0);
  });

  it('makes a copy that arrives while the first still runs wait for its answer, or say it is still running', () => {
    let finish: (() => void) | undefined;
    const env = setup({ onSleep: () => finish?.() });
    const first = env.call(5, 'make_thing', { name: 'lamp' });
    // Replay the state "the first call is running" by putting its marker back, then let it finish after a sleep.
    const [key, entry] = [...env.cache.items][0];
    const done = entry.value;
    const running = JSON.stringify({ f: JSON.parse(done).f });
    env.cache.put(key, running, 360);
    let sleeps = 0;
    finish = () => {
      if (++sleeps === 3) env.cache.put(key, done, 21600);
    };
    const waited = env.call(5, 'make_thing', { name: 'lamp' });
    expect(waited.answer).toEqual(first.answer);
    expect(sleeps).toBe(3);
    // A first call that never finishes: after the wait, a tool error says so, and nothing acted.
    env.cache.put(key, running, 360);
    finish = undefined;
    const stuck = env.call(5, 'make_thing', { name: 'lamp' });
    expect(stuck.answer!.result).toMatchObject({ isError: true, structuredContent: { status: 409 } });
    expect(stuck.answer!.result.structuredContent.error.code).toBe('request_in_progress');
    expect(stuck.called).toBe('mcp tools/call make_thing (still running)');
    expect(env.things).toEqual(['lamp']);
  });
});
