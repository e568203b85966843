// Rooms through the built file: get_status per room, storage failures, send_message and the room tools over MCP.
import { describe, expect, it } from 'vitest';
import { besideLockHolder, gas, records } from '../../helpers.js';
import { call, mcp, setup } from './rooms-helpers.js';

describe('get_status for the rooms', () => {
  it('gives the rooms protocol’s shape: per room online users, visible messages and storage, and the totals', async () => {
    const { rt, worker, coord, viewer } = await setup();
    for (const room of ['alpha', 'beta']) await call(rt, worker, 'POST', '/rooms', { roomName: room });
    await call(rt, worker, 'POST', '/rooms/alpha/enter', { agentName: 'helper' });
    await call(rt, worker, 'POST', '/rooms/beta/enter', { agentName: 'helper' });
    await call(rt, coord, 'POST', '/rooms/alpha/enter', { agentName: 'lead' });
    for (const m of ['12345', 'abc'])
      await call(rt, worker, 'POST', '/rooms/alpha/messages', { agentName: 'helper', message: m });
    await call(rt, worker, 'POST', '/rooms/beta/messages', { agentName: 'helper', message: 'x', metadata: { k: 1 } });
    const all = await call(rt, viewer, 'GET', '/status');
    expect(all.status).toBe(200);
    expect(all.rooms).toEqual([
      { name: 'alpha', onlineUsers: 2, totalMessages: 2, storageSize: 8 },
      { name: 'beta', onlineUsers: 1, totalMessages: 1, storageSize: 1 + '{"k":1}'.length },
    ]);
    // helper in two rooms is one user.
    expect([all.totalRooms, all.totalOnlineUsers, all.totalMessages]).toEqual([2, 2, 3]);
    const one = await call(rt, viewer, 'GET', '/status', { roomName: 'alpha' });
    expect([one.rooms.map((r: any) => r.name), one.totalRooms]).toEqual([['alpha'], 1]);
    // A clear hides the messages from the count; storage still holds them.
    await call(rt, coord, 'POST', '/rooms/alpha/clear', { confirm: true });
    expect((await call(rt, viewer, 'GET', '/status', { roomName: 'alpha' })).rooms[0]).toMatchObject({
      totalMessages: 0,
      storageSize: 8,
    });
    rt.clock.advance(301_000);
    expect((await call(rt, viewer, 'GET', '/status', { roomName: 'alpha' })).rooms[0].onlineUsers).toBe(0);
    const missing = await call(rt, viewer, 'GET', '/status', { roomName: 'nowhere' });
    expect([missing.status, missing.error.code]).toEqual([404, 'ROOM_NOT_FOUND']);
  });
});

describe('storage failures', () => {
  it('answers STORAGE_ERROR when a room tab is gone, and FILE_LOCK_TIMEOUT when the lock stays held', async () => {
    const { rt, worker } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'fragile' });
    await call(rt, worker, 'POST', '/rooms/fragile/enter', { agentName: 'helper' });
    // Another execution holds the script lock longer than a room call waits (10 s).
    const { holder, result: busy } = await besideLockHolder(rt, 12_000, () =>
      call(rt, worker, 'POST', '/rooms/fragile/messages', { agentName: 'helper', message: 'hi' }),
    );
    // A lock time-out, not a server failure: 503 with when to try again, as every API call's (src/core/api/api.ts).
    expect([busy.status, busy.error.code]).toEqual([503, 'FILE_LOCK_TIMEOUT']);
    expect(busy.error.details.retry_after_seconds).toBeGreaterThan(0);
    expect(holder.ok).toBe(true);
    expect(records(rt, 'room_messages')).toEqual([]);
    expect(
      (await call(rt, worker, 'POST', '/rooms/fragile/messages', { agentName: 'helper', message: 'hi' })).status,
    ).toBe(200);
    await gas(
      rt,
      "var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.deleteSheet(ss.getSheetByName('Room Messages')); return 1;",
    );
    const gone = await call(rt, worker, 'GET', '/rooms/fragile/messages');
    expect([gone.status, gone.error.code]).toEqual([500, 'STORAGE_ERROR']);
    expect(gone.error.message).toMatch(/Room Messages tab is missing/);
  }, 60_000);
});

// One MCP tools/call over POST ?path=/mcp.

describe('send_message over MCP', () => {
  it('acts once for a re-sent call with the same JSON-RPC id, even without the replay cache', async () => {
    const { rt, worker } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'once' });
    await call(rt, worker, 'POST', '/rooms/once/enter', { agentName: 'helper' });
    const args = { roomName: 'once', agentName: 'helper', message: 'only once' };
    const first = await mcp(rt, worker, 7, 'send_message', args);
    // CacheService keeps nothing for sure: with the replay cache gone, the message's request key still dedupes it.
    for (const c of rt.caches.values()) c.load([]);
    const again = await mcp(rt, worker, 7, 'send_message', args);
    const sc = (r: any) => r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    expect(sc(first).messageId).toMatch(/^RMSG-/);
    expect(sc(again)).toEqual(sc(first));
    expect(records(rt, 'room_messages')).toHaveLength(1);
    expect(String(records(rt, 'room_messages')[0].request_key)).toMatch(/^mcp:helper:7:/);
    // Another id is another message.
    await mcp(rt, worker, 8, 'send_message', args);
    expect(records(rt, 'room_messages')).toHaveLength(2);
    // Past the replay window the same id is a new call (a client's next session numbers its ids from 0 again).
    rt.clock.advance(601_000);
    for (const c of rt.caches.values()) c.load([]);
    await mcp(rt, worker, 7, 'send_message', args);
    expect(records(rt, 'room_messages')).toHaveLength(3);
  });
});

describe('the room tools', () => {
  it('are listed under the rooms protocol’s names with number and boolean inputs, and work with JSON arguments', async () => {
    const { rt, worker } = await setup();
    const list = JSON.parse(
      (
        await rt.doPost(
          { path: '/mcp' },
          JSON.stringify({ token: worker, jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        )
      ).body,
    );
    const tools = Object.fromEntries(list.result.tools.map((t: any) => [t.name, t]));
    for (const name of [
      'list_rooms',
      'create_room',
      'enter_room',
      'leave_room',
      'list_room_users',
      'send_message',
      'get_messages',
    ])
      expect(tools[name], name).toBeDefined();
    // A worker is not offered the coordinator's clear.
    expect(tools.clear_room_messages).toBeUndefined();
    const get = tools.get_messages.inputSchema;
    expect(get.required).toEqual(['roomName']);
    expect(get.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(get.properties.offset.type).toBe('integer');
    expect(get.properties.mentionsOnly.type).toBe('boolean');
    // agentName is the client's own, so it may be left out.
    expect(tools.send_message.inputSchema.required).toEqual(['roomName', 'message']);
    const sc = (r: any) => r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    expect(sc(await mcp(rt, worker, 2, 'create_room', { roomName: 'mcp-room' })).success).toBe(true);
    await mcp(rt, worker, 3, 'enter_room', { roomName: 'mcp-room' });
    for (let i = 0; i < 3; i++)
      await mcp(rt, worker, 10 + i, 'send_message', { roomName: 'mcp-room', message: `n${i} @helper` });
    const page = sc(
      await mcp(rt, worker, 20, 'get_messages', {
        roomName: 'mcp-room',
        limit: 2,
        offset: 0,
        agentName: 'helper',
        mentionsOnly: true,
      }),
    );
    expect([page.count, page.hasMore, page.messages.map((m: any) => m.message)]).toEqual([
      2,
      true,
      ['n1 @helper', 'n2 @helper'],
    ]);
    const refused = await mcp(rt, worker, 21, 'send_message', { roomName: 'nowhere', message: 'x' });
    expect(refused.result.isError).toBe(true);
    expect(JSON.stringify(refused.result)).toContain('ROOM_NOT_FOUND');
  });
});
