// Rooms (seed 004) through the built file: every operation over REST with its errors, limits, clearing that keeps
// the record, hostile text, and an idempotent send.
import { describe, expect, it } from 'vitest';
import { ok, setSetting } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { call, setup, token } from './rooms-helpers.js';

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
