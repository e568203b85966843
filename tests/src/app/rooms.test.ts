// Rooms (seed 004) through the built file: every operation over REST with its errors, limits, clearing that keeps
// the record, hostile text, and an idempotent send.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, ok, setSetting } from '../../council-helpers.js';
import { gas, records } from '../../helpers.js';

async function token(rt: Runtime, name: string, role: string): Promise<string> {
  return ((await rt.callServer('createApiClient', { name, role })) as { token: string }).token;
}

// One REST call: the answer's JSON body (status inside, as Apps Script cannot set one).
async function call(rt: Runtime, tok: string, method: 'GET' | 'POST', path: string, body: object = {}): Promise<any> {
  if (method === 'GET') {
    const params: Record<string, string> = { path, token: tok };
    for (const [k, v] of Object.entries(body)) params[k] = String(v);
    return JSON.parse((await rt.doGet(params)).body);
  }
  return JSON.parse((await rt.doPost({ path }, JSON.stringify({ token: tok, ...body }))).body);
}

async function setup(): Promise<{ rt: Runtime; worker: string; coord: string; viewer: string }> {
  const rt = await council();
  return {
    rt,
    worker: await token(rt, 'buddy', 'worker'),
    coord: await token(rt, 'lead', 'coordinator'),
    viewer: await token(rt, 'watcher', 'viewer'),
  };
}

describe('rooms over REST', () => {
  it('creates, enters, sends, reads, lists users and leaves, with seed 004 shapes', async () => {
    const { rt, worker, viewer } = await setup();
    expect(await call(rt, worker, 'POST', '/rooms', { roomName: 'dev-team', description: 'Development' })).toEqual({
      status: 200,
      success: true,
      roomName: 'dev-team',
      message: 'Room dev-team was created.',
    });
    const entered = await call(rt, worker, 'POST', '/rooms/dev-team/enter', {
      agentName: 'agent1',
      profile: { role: 'coordinator', description: 'plans', capabilities: ['task_planning'], metadata: { v: 2 } },
    });
    expect(entered).toMatchObject({ status: 200, success: true, roomName: 'dev-team' });
    const sent = await call(rt, worker, 'POST', '/rooms/dev-team/messages', {
      agentName: 'agent1',
      message: 'Hello @coordinator and @agent2, mail me at a@b.com',
      metadata: { k: 1 },
    });
    expect(sent).toMatchObject({
      status: 200,
      success: true,
      roomName: 'dev-team',
      mentions: ['coordinator', 'agent2'],
    });
    expect(sent.messageId).toMatch(/^RMSG-\d+$/);
    const got = await call(rt, viewer, 'GET', '/rooms/dev-team/messages', {});
    expect(got).toMatchObject({ status: 200, roomName: 'dev-team', count: 1, hasMore: false });
    expect(got.messages[0]).toEqual({
      id: sent.messageId,
      agentName: 'agent1',
      message: 'Hello @coordinator and @agent2, mail me at a@b.com',
      timestamp: sent.timestamp,
      mentions: ['coordinator', 'agent2'],
      metadata: { k: 1 },
    });
    const users = await call(rt, viewer, 'GET', '/rooms/dev-team/users');
    expect(users).toMatchObject({ status: 200, roomName: 'dev-team', onlineCount: 1 });
    expect(users.users).toEqual([
      {
        name: 'agent1',
        status: 'online',
        messageCount: 1,
        profile: { role: 'coordinator', description: 'plans', capabilities: ['task_planning'], metadata: { v: 2 } },
      },
    ]);
    const listed = await call(rt, viewer, 'GET', '/rooms', { agentName: 'agent1' });
    expect(listed.rooms.find((r: any) => r.name === 'dev-team')).toEqual({
      name: 'dev-team',
      description: 'Development',
      userCount: 1,
      messageCount: 1,
      isJoined: true,
      readOnly: false,
    });
    expect(await call(rt, worker, 'POST', '/rooms/dev-team/leave', { agentName: 'agent1' })).toMatchObject({
      status: 200,
      success: true,
    });
    expect((await call(rt, viewer, 'GET', '/rooms/dev-team/users')).users).toEqual([]);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('answers seed 004 error codes with the SPEC §11 error JSON', async () => {
    const { rt, worker, coord, viewer } = await setup();
    const other = await token(rt, 'other', 'worker');
    await call(rt, worker, 'POST', '/rooms', { roomName: 'dev-team' });
    const err = (r: any) => ({ status: r.status, code: r.error?.code });
    expect(err(await call(rt, worker, 'POST', '/rooms', { roomName: 'dev-team' }))).toEqual({
      status: 409,
      code: 'ROOM_ALREADY_EXISTS',
    });
    expect(err(await call(rt, worker, 'POST', '/rooms', { roomName: 'Dev-Team' }))).toEqual({
      status: 409,
      code: 'ROOM_ALREADY_EXISTS',
    });
    const badName = await call(rt, worker, 'POST', '/rooms', { roomName: 'dev team' });
    expect(err(badName)).toEqual({ status: 400, code: 'invalid_input' });
    expect(badName.error.details[0].field).toBe('roomName');
    expect(err(await call(rt, worker, 'POST', '/rooms', { roomName: 'DISC-mine' }))).toEqual({
      status: 400,
      code: 'INVALID_ROOM_NAME',
    });
    for (const [method, path, body] of [
      ['POST', '/rooms/nowhere/enter', { agentName: 'a1' }],
      ['POST', '/rooms/nowhere/leave', { agentName: 'a1' }],
      ['POST', '/rooms/nowhere/messages', { agentName: 'a1', message: 'hi' }],
      ['GET', '/rooms/nowhere/messages', {}],
      ['GET', '/rooms/nowhere/users', {}],
      ['POST', '/rooms/nowhere/clear', { confirm: true }],
    ] as const) {
      const tok = path.endsWith('clear') ? coord : worker;
      expect(err(await call(rt, tok, method, path, body)), path).toEqual({ status: 404, code: 'ROOM_NOT_FOUND' });
    }
    // Sending before entering, entering twice, a council agent's name, a name another client holds.
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/messages', { agentName: 'a1', message: 'hi' }))).toEqual(
      { status: 404, code: 'AGENT_NOT_FOUND' },
    );
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/leave', { agentName: 'a1' }))).toEqual({
      status: 404,
      code: 'AGENT_NOT_FOUND',
    });
    await call(rt, worker, 'POST', '/rooms/dev-team/enter', { agentName: 'a1' });
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/enter', { agentName: 'a1' }))).toEqual({
      status: 409,
      code: 'AGENT_ALREADY_IN_ROOM',
    });
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/enter', { agentName: 'devils_advocate' }))).toEqual({
      status: 409,
      code: 'AGENT_NAME_RESERVED',
    });
    await call(rt, worker, 'POST', '/rooms', { roomName: 'ops' });
    expect(err(await call(rt, other, 'POST', '/rooms/ops/enter', { agentName: 'a1' }))).toEqual({
      status: 409,
      code: 'AGENT_NAME_TAKEN',
    });
    // Another client cannot speak or leave under a1.
    expect(err(await call(rt, other, 'POST', '/rooms/dev-team/messages', { agentName: 'a1', message: 'x' }))).toEqual({
      status: 409,
      code: 'AGENT_NOT_IN_ROOM',
    });
    expect(err(await call(rt, other, 'POST', '/rooms/dev-team/leave', { agentName: 'a1' }))).toEqual({
      status: 409,
      code: 'AGENT_NOT_IN_ROOM',
    });
    // Messages: blank, not text.
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/messages', { agentName: 'a1', message: '  ' }))).toEqual(
      {
        status: 400,
        code: 'INVALID_MESSAGE_FORMAT',
      },
    );
    const notText = await call(rt, worker, 'POST', '/rooms/dev-team/messages', { agentName: 'a1', message: 42 });
    expect(err(notText)).toEqual({ status: 400, code: 'invalid_input' });
    expect(notText.error.details[0].field).toBe('message');
    // Paging inputs over the query string.
    const noName = await call(rt, viewer, 'GET', '/rooms/dev-team/messages', { mentionsOnly: 'true' });
    expect(err(noName)).toEqual({ status: 400, code: 'invalid_input' });
    expect(noName.error.details[0].field).toBe('agentName');
    expect(err(await call(rt, viewer, 'GET', '/rooms/dev-team/messages', { limit: '0' }))).toEqual({
      status: 400,
      code: 'invalid_input',
    });
    // Leaving, then leaving again or sending.
    await call(rt, worker, 'POST', '/rooms/dev-team/leave', { agentName: 'a1' });
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/leave', { agentName: 'a1' }))).toEqual({
      status: 409,
      code: 'AGENT_NOT_IN_ROOM',
    });
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/messages', { agentName: 'a1', message: 'x' }))).toEqual({
      status: 409,
      code: 'AGENT_NOT_IN_ROOM',
    });
    // Once out, another client may take the name.
    expect((await call(rt, other, 'POST', '/rooms/ops/enter', { agentName: 'a1' })).status).toBe(200);
    // Roles: a viewer reads but writes nothing; only a coordinator or admin clears.
    expect(err(await call(rt, viewer, 'POST', '/rooms', { roomName: 'v' }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect(err(await call(rt, viewer, 'POST', '/rooms/dev-team/enter', { agentName: 'v1' }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect(err(await call(rt, worker, 'POST', '/rooms/dev-team/clear', { confirm: true }))).toEqual({
      status: 403,
      code: 'forbidden',
    });
    expect((await call(rt, viewer, 'GET', '/rooms')).status).toBe(200);
    // Nothing a refused call tried was written.
    expect(records(rt, 'rooms').map((r) => r.room_name)).toEqual(['dev-team', 'ops']);
    expect(records(rt, 'room_messages')).toEqual([]);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('holds the limits in Settings', async () => {
    const { rt, worker, coord } = await setup();
    await setSetting(rt, 'rooms.max_rooms', '2');
    await setSetting(rt, 'rooms.max_name_chars', '8');
    await setSetting(rt, 'rooms.max_message_chars', '100');
    await setSetting(rt, 'rooms.max_messages_per_room', '3');
    const tooLong = await call(rt, worker, 'POST', '/rooms', { roomName: 'abcdefghi' });
    expect([tooLong.status, tooLong.error.code]).toEqual([413, 'INVALID_ROOM_NAME']);
    expect((await call(rt, worker, 'POST', '/rooms', { roomName: 'abcdefgh' })).status).toBe(200);
    expect((await call(rt, worker, 'POST', '/rooms', { roomName: 'r2' })).status).toBe(200);
    const third = await call(rt, worker, 'POST', '/rooms', { roomName: 'r3' });
    expect([third.status, third.error.code]).toEqual([409, 'ROOM_LIMIT_REACHED']);
    const longAgent = await call(rt, worker, 'POST', '/rooms/r2/enter', { agentName: 'agent_123' });
    expect([longAgent.status, longAgent.error.code]).toEqual([413, 'INVALID_AGENT_NAME']);
    await call(rt, worker, 'POST', '/rooms/r2/enter', { agentName: 'a1' });
    const big = await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: 'x'.repeat(101) });
    expect([big.status, big.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    // Characters, not UTF-16 units: 100 emoji fit.
    expect(
      (await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: '😀'.repeat(100) })).status,
    ).toBe(200);
    const bigMeta = await call(rt, worker, 'POST', '/rooms/r2/messages', {
      agentName: 'a1',
      message: 'm',
      metadata: { note: 'y'.repeat(100) },
    });
    expect([bigMeta.status, bigMeta.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    expect((await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: 'two' })).status).toBe(
      200,
    );
    expect((await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: 'three' })).status).toBe(
      200,
    );
    const full = await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: 'four' });
    expect([full.status, full.error.code]).toEqual([409, 'ROOM_FULL']);
    // Clearing makes room again.
    expect((await call(rt, coord, 'POST', '/rooms/r2/clear', { confirm: true })).clearedCount).toBe(3);
    expect((await call(rt, worker, 'POST', '/rooms/r2/messages', { agentName: 'a1', message: 'four' })).status).toBe(
      200,
    );
  });

  it('pages back from the newest, with numbers and flags from the query string', async () => {
    const { rt, worker, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'paging' });
    await call(rt, worker, 'POST', '/rooms/paging/enter', { agentName: 'alice' });
    for (let i = 1; i <= 7; i++)
      await call(rt, worker, 'POST', '/rooms/paging/messages', {
        agentName: 'alice',
        message: i % 3 === 0 ? `m${i} for @bob` : `m${i}`,
      });
    const page = async (q: Record<string, string>) => {
      const r = await call(rt, viewer, 'GET', '/rooms/paging/messages', q);
      expect(r.status).toBe(200);
      return { texts: r.messages.map((m: any) => m.message), count: r.count, hasMore: r.hasMore };
    };
    expect(await page({ limit: '3' })).toEqual({ texts: ['m5', 'm6 for @bob', 'm7'], count: 3, hasMore: true });
    expect(await page({ limit: '3', offset: '3' })).toEqual({
      texts: ['m2', 'm3 for @bob', 'm4'],
      count: 3,
      hasMore: true,
    });
    expect(await page({ limit: '3', offset: '6' })).toEqual({ texts: ['m1'], count: 1, hasMore: false });
    expect((await page({})).count).toBe(7);
    expect(await page({ agentName: 'bob', mentionsOnly: 'true' })).toEqual({
      texts: ['m3 for @bob', 'm6 for @bob'],
      count: 2,
      hasMore: false,
    });
    expect(await page({ agentName: 'bob', mentionsOnly: 'true', limit: '1' })).toEqual({
      texts: ['m6 for @bob'],
      count: 1,
      hasMore: true,
    });
    expect((await page({ agentName: 'bob', mentionsOnly: 'false' })).count).toBe(7);
  });

  it('clears only with confirm: true, hiding the messages and keeping them and their audit rows', async () => {
    const { rt, worker, coord, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'tidy' });
    await call(rt, worker, 'POST', '/rooms/tidy/enter', { agentName: 'alice' });
    for (const m of ['one', 'two', 'three'])
      await call(rt, worker, 'POST', '/rooms/tidy/messages', { agentName: 'alice', message: m });
    for (const body of [{}, { confirm: false }]) {
      const r = await call(rt, coord, 'POST', '/rooms/tidy/clear', body);
      expect([r.status, r.error.code]).toEqual([400, 'CONFIRMATION_REQUIRED']);
    }
    const text = await call(rt, coord, 'POST', '/rooms/tidy/clear', { confirm: 'true' });
    expect([text.status, text.error.details[0].field]).toEqual([400, 'confirm']);
    expect((await call(rt, viewer, 'GET', '/rooms/tidy/messages')).count).toBe(3);
    expect(await call(rt, coord, 'POST', '/rooms/tidy/clear', { confirm: true })).toEqual({
      status: 200,
      success: true,
      roomName: 'tidy',
      clearedCount: 3,
    });
    expect(await call(rt, viewer, 'GET', '/rooms/tidy/messages')).toMatchObject({
      count: 0,
      messages: [],
      hasMore: false,
    });
    // The rows and their audit rows are all still there, and the chain verifies.
    const rows = records(rt, 'room_messages');
    expect(rows.map((r) => r.message)).toEqual(['one', 'two', 'three']);
    const audited = records(rt, 'audit')
      .filter((r) => r.tab === 'Room Messages')
      .map((r) => r.row_key);
    expect(audited).toEqual(rows.map((r) => r.message_id));
    const cleared = records(rt, 'audit').filter((r) => r.event === 'room_cleared');
    expect(cleared.map((r) => [r.actor, r.row_key])).toEqual([['api:lead', 'tidy']]);
    expect(records(rt, 'rooms')[0]).toMatchObject({ cleared_through: 3, cleared_by: 'lead' });
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
    // The room goes on after the clear, its numbering too.
    await call(rt, worker, 'POST', '/rooms/tidy/messages', { agentName: 'alice', message: 'four' });
    const after = await call(rt, viewer, 'GET', '/rooms/tidy/messages');
    expect(after.messages.map((m: any) => m.message)).toEqual(['four']);
    expect(records(rt, 'room_messages').map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect((await call(rt, viewer, 'GET', '/rooms')).rooms.find((r: any) => r.name === 'tidy').messageCount).toBe(1);
  });

  it('stores and returns hostile text exactly, as text', async () => {
    const { rt, worker, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'hostile', description: '=HYPERLINK("http://x","y")' });
    await call(rt, worker, 'POST', '/rooms/hostile/enter', { agentName: 'mallory', profile: { description: '+1+1' } });
    const texts = [
      '=IMPORTXML("http://x","//a")',
      '<img src=x onerror=alert(1)>',
      '+SUM(1,2)',
      '-1',
      '@mallory',
      "'quoted",
      'x'.repeat(19_999),
      '日本語😀\n\t"',
    ];
    const ids: string[] = [];
    for (const message of texts) {
      const r = await call(rt, worker, 'POST', '/rooms/hostile/messages', {
        agentName: 'mallory',
        message,
        metadata: { note: '=1+1', html: '<script>x</script>' },
      });
      expect(r.status).toBe(200);
      ids.push(r.messageId);
    }
    const got = await call(rt, viewer, 'GET', '/rooms/hostile/messages', { limit: '50' });
    expect(got.messages.map((m: any) => m.message)).toEqual(texts);
    expect(got.messages[0].metadata).toEqual({ note: '=1+1', html: '<script>x</script>' });
    expect(records(rt, 'room_messages').map((r) => r.message)).toEqual(texts);
    expect(records(rt, 'rooms')[0].description).toBe('=HYPERLINK("http://x","y")');
    const over = await call(rt, worker, 'POST', '/rooms/hostile/messages', {
      agentName: 'mallory',
      message: 'x'.repeat(20_001),
    });
    expect([over.status, over.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('shows members offline once their calls are older than the presence window', async () => {
    const { rt, worker, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'here' });
    await call(rt, worker, 'POST', '/rooms/here/enter', { agentName: 'alice' });
    const status = async () => (await call(rt, viewer, 'GET', '/rooms/here/users')).users[0].status;
    expect(await status()).toBe('online');
    rt.clock.advance(301_000);
    expect(await status()).toBe('offline');
    // Any call by the client it entered with brings it back.
    await call(rt, worker, 'GET', '/rooms');
    expect(await status()).toBe('online');
  });
});

describe('get_status for the rooms', () => {
  it('gives seed 004’s shape: per room online users, visible messages and storage, and the totals', async () => {
    const { rt, worker, coord, viewer } = await setup();
    for (const room of ['alpha', 'beta']) await call(rt, worker, 'POST', '/rooms', { roomName: room });
    await call(rt, worker, 'POST', '/rooms/alpha/enter', { agentName: 'alice' });
    await call(rt, worker, 'POST', '/rooms/beta/enter', { agentName: 'alice' });
    await call(rt, coord, 'POST', '/rooms/alpha/enter', { agentName: 'carol' });
    for (const m of ['12345', 'abc'])
      await call(rt, worker, 'POST', '/rooms/alpha/messages', { agentName: 'alice', message: m });
    await call(rt, worker, 'POST', '/rooms/beta/messages', { agentName: 'alice', message: 'x', metadata: { k: 1 } });
    const all = await call(rt, viewer, 'GET', '/status');
    expect(all.status).toBe(200);
    expect(all.rooms).toEqual([
      { name: 'alpha', onlineUsers: 2, totalMessages: 2, storageSize: 8 },
      { name: 'beta', onlineUsers: 1, totalMessages: 1, storageSize: 1 + '{"k":1}'.length },
    ]);
    // alice in two rooms is one user.
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
    await call(rt, worker, 'POST', '/rooms/fragile/enter', { agentName: 'alice' });
    // Another execution holds the script lock longer than a room call waits (10 s).
    const holder = rt.evaluate('LockService.getScriptLock().waitLock(1000); Utilities.sleep(12000); return 1;');
    await new Promise((r) => setTimeout(r, 300));
    const busy = await call(rt, worker, 'POST', '/rooms/fragile/messages', { agentName: 'alice', message: 'hi' });
    expect([busy.status, busy.error.code]).toEqual([500, 'FILE_LOCK_TIMEOUT']);
    expect((await holder).ok).toBe(true);
    expect(records(rt, 'room_messages')).toEqual([]);
    expect(
      (await call(rt, worker, 'POST', '/rooms/fragile/messages', { agentName: 'alice', message: 'hi' })).status,
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
async function mcp(rt: Runtime, tok: string, id: number, name: string, args: object): Promise<any> {
  const body = { token: tok, jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
  return JSON.parse((await rt.doPost({ path: '/mcp' }, JSON.stringify(body))).body);
}

describe('send_message over MCP', () => {
  it('acts once for a re-sent call with the same JSON-RPC id, even without the replay cache', async () => {
    const { rt, worker } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'once' });
    await call(rt, worker, 'POST', '/rooms/once/enter', { agentName: 'alice' });
    const args = { roomName: 'once', agentName: 'alice', message: 'only once' };
    const first = await mcp(rt, worker, 7, 'send_message', args);
    // CacheService keeps nothing for sure: with the replay cache gone, the message's request key still dedupes it.
    for (const c of rt.caches.values()) c.load([]);
    const again = await mcp(rt, worker, 7, 'send_message', args);
    const sc = (r: any) => r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    expect(sc(first).messageId).toMatch(/^RMSG-/);
    expect(sc(again)).toEqual(sc(first));
    expect(records(rt, 'room_messages')).toHaveLength(1);
    expect(String(records(rt, 'room_messages')[0].request_key)).toMatch(/^mcp:buddy:7:/);
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
  it('are listed under seed 004’s names with number and boolean inputs, and work with JSON arguments', async () => {
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
    expect(tools.send_message.inputSchema.required).toEqual(['roomName', 'agentName', 'message']);
    const sc = (r: any) => r.result.structuredContent ?? JSON.parse(r.result.content[0].text);
    expect(sc(await mcp(rt, worker, 2, 'create_room', { roomName: 'mcp-room' })).success).toBe(true);
    await mcp(rt, worker, 3, 'enter_room', { roomName: 'mcp-room', agentName: 'bot' });
    for (let i = 0; i < 3; i++)
      await mcp(rt, worker, 10 + i, 'send_message', { roomName: 'mcp-room', agentName: 'bot', message: `n${i} @bot` });
    const page = sc(
      await mcp(rt, worker, 20, 'get_messages', {
        roomName: 'mcp-room',
        limit: 2,
        offset: 0,
        agentName: 'bot',
        mentionsOnly: true,
      }),
    );
    expect([page.count, page.hasMore, page.messages.map((m: any) => m.message)]).toEqual([
      2,
      true,
      ['n1 @bot', 'n2 @bot'],
    ]);
    const refused = await mcp(rt, worker, 21, 'send_message', { roomName: 'nowhere', agentName: 'bot', message: 'x' });
    expect(refused.result.isError).toBe(true);
    expect(JSON.stringify(refused.result)).toContain('ROOM_NOT_FOUND');
  });
});
