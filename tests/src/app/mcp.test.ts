// MCP through the built file: raw JSON-RPC posts to doPost, and the official SDK client over a fetch that plays
// Apps Script's web app (POST /exec runs doPost, then a 302 to a GET-only echo URL on another origin).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { OPERATIONS } from '../../../src/app/routes/registry.js';
import { council } from '../../council-helpers.js';
import { appendApiLog, records } from '../../helpers.js';

const EXEC = 'https://script.google.com/macros/s/KAIGI/exec';
const ECHO = 'https://script.googleusercontent.com/macros/echo';

// The tools an admin is offered are the registry's own: an operation marked `tool` is listed, so adding a route with
// a tool needs no edit here. Each role's list is checked against the operations' roles below.
const TOOLS = OPERATIONS.filter((o) => o.tool);

async function token(rt: Runtime, name: string, role: string): Promise<string> {
  return ((await rt.callServer('createApiClient', { name, role })) as { token: string }).token;
}

// A fetch that reaches the runtime as Google reaches the script: the POST runs doPost and answers 302; the echo
// URL answers the output to a GET. It follows the redirect unless asked not to, as fetch does.
function appsScriptFetch(rt: Runtime): typeof fetch {
  const outputs = new Map<string, { body: string; mimeType: string }>();
  let n = 0;
  const echo = (id: string | null) => {
    const out = id ? outputs.get(id) : undefined;
    if (!out) return new Response('Not found', { status: 404 });
    return new Response(out.body, { status: 200, headers: { 'content-type': out.mimeType } });
  };
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (`${url.origin}${url.pathname}` === ECHO) return echo(url.searchParams.get('id'));
    const params = Object.fromEntries(url.searchParams);
    const reply =
      (init?.method ?? 'GET') === 'POST' ? await rt.doPost(params, String(init!.body)) : await rt.doGet(params);
    const id = String(++n);
    outputs.set(id, reply);
    if (init?.redirect === 'manual' || init?.redirect === 'error')
      return new Response(null, { status: 302, headers: { location: `${ECHO}?id=${id}` } });
    return echo(id);
  };
}

async function connect(rt: Runtime, tok: string, follow = true): Promise<Client> {
  const client = new Client({ name: 'kaigi-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${EXEC}?path=/mcp&token=${tok}`), {
    fetch: appsScriptFetch(rt),
    ...(follow ? { redirectPolicy: 'follow' as const } : {}),
  });
  await client.connect(transport);
  return client;
}

// One raw JSON-RPC post with the token in the body; the parsed answer (null for an empty body).
async function rpc(rt: Runtime, tok: string | undefined, message: object): Promise<any> {
  const reply = await rt.doPost({ path: '/mcp' }, JSON.stringify(tok ? { ...message, token: tok } : message));
  expect(reply.mimeType).toBe('application/json');
  return JSON.parse(reply.body);
}

const callTool = (id: number | string, name: string, args: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('MCP through the web app', () => {
  it('serves the official SDK client over the redirect: initialize, ping, tools/list and get_status', async () => {
    const rt = await council();
    const client = await connect(rt, await token(rt, 'ops', 'admin'));
    expect(client.getServerVersion()).toMatchObject({ name: 'kaigi', version: '0.1.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    expect(client.getInstructions()).toMatch(/council of AI agents/);
    expect(await client.ping()).toEqual({});
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    // Every tool of the registry, in its order, all open to an admin; the rooms protocol's and the council's are there.
    expect(names).toEqual(TOOLS.map((o) => o.name));
    expect(names).toEqual(expect.arrayContaining(['list_rooms', 'send_message', 'start_discussion', 'record_kpi']));
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description).toBeTruthy();
    }
    const send = tools.find((t) => t.name === 'send_message')!;
    expect(send.inputSchema.required).toEqual(['roomName', 'message']);
    expect(send.annotations).toEqual({ readOnlyHint: false });
    const status = await client.callTool({ name: 'get_status', arguments: {} });
    expect(status.isError).toBeUndefined();
    expect(JSON.parse((status.content as { text: string }[])[0].text)).toEqual(status.structuredContent);
    await client.close();
  });

  it('lists to each role only the tools it may call', async () => {
    const rt = await council();
    const viewer = await connect(rt, await token(rt, 'watcher', 'viewer'));
    const names = (await viewer.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(TOOLS.filter((o) => o.roles.includes('viewer')).map((o) => o.name));
    expect(names).toContain('get_messages');
    expect(names).not.toContain('create_room');
    expect(names).not.toContain('clear_room_messages');
    expect(names).not.toContain('start_discussion');
    expect(names).toContain('get_discussion');
    // What a discussion may be started about is any client's to read.
    expect(names).toContain('list_members');
    expect(names).toContain('list_trigger_types');
    // An executor's tools are a worker's and up.
    expect(names).not.toContain('list_orders');
    expect(names).not.toContain('report_order');
  });

  it('starts a discussion as a tool, once per id, and the discussion is a room', async () => {
    const rt = await council();
    const tok = await token(rt, 'lead', 'coordinator');
    const trigger = {
      type: 'kpi_decline',
      target_user_id: 'tanaka',
      context: { metric: 'contacts' },
      priority: 'HIGH',
    };
    const first = await rpc(rt, tok, callTool(7, 'start_discussion', trigger));
    const started = first.result.structuredContent;
    expect(started).toMatchObject({ status: 202, task_id: expect.stringMatching(/^Q-/) });
    expect(started.discussion_id).toMatch(/^DISC-/);
    expect(await rpc(rt, tok, callTool(7, 'start_discussion', trigger))).toEqual(first);
    expect(records(rt, 'queue').filter((q) => q.type === 'discussion.open')).toHaveLength(1);
    // The trigger the nudge scheduled opens it; then it is a read-only room.
    await rt.run('tick', [], { kind: 'trigger' });
    const client = await connect(rt, tok);
    const got = (await client.callTool({ name: 'get_discussion', arguments: { id: started.task_id } }))
      .structuredContent as any;
    expect(got.discussion_id).toBe(started.discussion_id);
    const rooms = (await client.callTool({ name: 'list_rooms', arguments: {} })).structuredContent as any;
    expect(rooms.rooms.find((r: { name: string }) => r.name === started.discussion_id)).toMatchObject({
      readOnly: true,
    });
    await client.close();
  });

  it('is refused by the SDK’s default redirect policy: Apps Script answers a POST with a 302 to another origin', async () => {
    const rt = await council();
    await expect(connect(rt, await token(rt, 'ops', 'admin'), false)).rejects.toThrow(
      `Redirect to ${ECHO} not followed (redirectPolicy: 'same-origin')`,
    );
  });

  it('answers a missing or bad token with the web API’s 401 JSON, which the SDK reports as an error', async () => {
    const rt = await council();
    expect(await rpc(rt, undefined, { jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({
      error: { code: 'unauthorized', message: 'A valid API token is required.' },
      status: 401,
    });
    await expect(connect(rt, `kaigi_${'0'.repeat(64)}`)).rejects.toThrow();
  });

  it('reports tool errors as the web API’s error JSON: bad arguments, a role the tool refuses, the rooms protocol’s codes', async () => {
    const rt = await council();
    const client = await connect(rt, await token(rt, 'helper', 'worker'));
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: no_such_tool.'),
    });
    const bad = await client.callTool({ name: 'create_room', arguments: { roomName: 'no spaces!' } });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      status: 400,
      error: { code: 'invalid_input', details: [{ field: 'roomName' }] },
    });
    const missing = await client.callTool({ name: 'enter_room', arguments: { roomName: 'nowhere' } });
    expect(missing).toMatchObject({
      isError: true,
      structuredContent: { status: 404, error: { code: 'ROOM_NOT_FOUND' } },
    });
    // A worker may not clear a room: the tool answers 403, as the REST route does.
    const forbidden = await client.callTool({
      name: 'clear_room_messages',
      arguments: { roomName: 'x', confirm: true },
    });
    expect(forbidden).toMatchObject({
      isError: true,
      structuredContent: {
        status: 403,
        error: { code: 'forbidden', message: 'The worker role cannot call clear_room_messages.' },
      },
    });
  });

  it('answers notifications with an empty object, and malformed JSON-RPC with -32600', async () => {
    const rt = await council();
    const tok = await token(rt, 'ops', 'admin');
    expect(await rpc(rt, tok, { jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({});
    expect(await rpc(rt, tok, { jsonrpc: '1.0', id: 3, method: 'ping' })).toMatchObject({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600 },
    });
    expect(await rpc(rt, tok, { jsonrpc: '2.0', id: 4, method: 'prompts/list' })).toMatchObject({
      id: 4,
      error: { code: -32601 },
    });
    const init = await rpc(rt, tok, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result.protocolVersion).toBe('2025-06-18');
    const discover = await rpc(rt, tok, { jsonrpc: '2.0', id: 5, method: 'server/discover' });
    expect(discover.result.supportedVersions[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('acts once for a tools/call re-sent with the same id, even when the cache has lost the first answer', async () => {
    const rt = await council();
    const tok = await token(rt, 'helper', 'worker');
    const create = callTool(42, 'create_room', { roomName: 'dev-team', description: 'Development' });
    const first = await rpc(rt, tok, create);
    expect(first.result.structuredContent).toMatchObject({ success: true, roomName: 'dev-team' });
    // Sent again after a lost redirect: the same success, not ROOM_ALREADY_EXISTS, and one row.
    expect(await rpc(rt, tok, create)).toEqual(first);
    expect(records(rt, 'rooms').filter((r) => r.room_name === 'dev-team')).toHaveLength(1);
    // The same id with other arguments is another call, and acts.
    const other = await rpc(rt, tok, callTool(42, 'create_room', { roomName: 'ops-team' }));
    expect(other.result.structuredContent).toMatchObject({ success: true, roomName: 'ops-team' });
    await rpc(rt, tok, callTool(43, 'enter_room', { roomName: 'dev-team' }));
    const send = callTool(44, 'send_message', { roomName: 'dev-team', message: 'hello' });
    const sent = await rpc(rt, tok, send);
    expect(await rpc(rt, tok, send)).toEqual(sent);
    // CacheService keeps nothing for sure: with the cache gone, the message's request key still dedupes it.
    for (const c of rt.caches.values()) c.load([]);
    const again = await rpc(rt, tok, send);
    expect(again.result.structuredContent.messageId).toBe(sent.result.structuredContent.messageId);
    expect(records(rt, 'room_messages').filter((r) => r.message === 'hello')).toHaveLength(1);
    // Another client with the same id is another call.
    const lead = await token(rt, 'lead', 'coordinator');
    await rpc(rt, lead, callTool(45, 'enter_room', { roomName: 'dev-team', agentName: 'lead' }));
    await rpc(rt, lead, callTool(44, 'send_message', { roomName: 'dev-team', agentName: 'lead', message: 'hello' }));
    expect(records(rt, 'room_messages').filter((r) => r.message === 'hello')).toHaveLength(2);
    // The API log tells the replays apart, and shows a tool error's status.
    await appendApiLog(rt);
    const log = records(rt, 'api_log').map((r) => [r.client, r.call, r.status, r.code]);
    expect(log.slice(0, 3)).toEqual([
      ['helper', 'mcp tools/call create_room', 200, ''],
      ['helper', 'mcp tools/call create_room (replayed)', 200, ''],
      ['helper', 'mcp tools/call create_room', 200, ''],
    ]);
    const missing = await rpc(rt, tok, callTool(46, 'enter_room', { roomName: 'nowhere' }));
    expect(missing.result.isError).toBe(true);
    await appendApiLog(rt);
    expect(records(rt, 'api_log').pop()).toMatchObject({
      call: 'mcp tools/call enter_room',
      status: 404,
      code: 'ROOM_NOT_FOUND',
    });
  });
});
