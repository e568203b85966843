// Rooms over REST in-process, answered as doGet/doPost answer them: the errors in the web API's JSON, the
// limits Settings hold, paging, clearing that keeps the record, hostile text and presence. The operations through
// the built file's doGet/doPost: rooms.test.ts.
import { describe, expect, it } from 'vitest';
import { client, type Kaigi, kaigi } from './inproc.js';
import { auditOk, editConfig, rest as call } from './inproc-more.js';

// A set-up Kaigi with a worker, a coordinator and a viewer client (rooms-helpers.ts's setup, in-process).
function setup(): { k: Kaigi; worker: string; coord: string; viewer: string } {
  const k = kaigi();
  return {
    k,
    worker: client(k, 'helper', 'worker'),
    coord: client(k, 'lead', 'coordinator'),
    viewer: client(k, 'watcher', 'viewer'),
  };
}

describe('rooms over REST in-process', () => {
  it('answers the rooms protocol’s error codes with the web API’s error JSON', () => {
    const { k, worker, coord, viewer } = setup();
    const other = client(k, 'other', 'worker');
    call(worker, 'POST', '/rooms', { roomName: 'dev-team' });
    // An error answer as `status code`.
    const err = (r: any) => `${r.status} ${r.error?.code}`;
    expect(err(call(worker, 'POST', '/rooms', { roomName: 'dev-team' }))).toBe('409 ROOM_ALREADY_EXISTS');
    expect(err(call(worker, 'POST', '/rooms', { roomName: 'Dev-Team' }))).toBe('409 ROOM_ALREADY_EXISTS');
    const badName = call(worker, 'POST', '/rooms', { roomName: 'dev team' });
    expect(err(badName)).toBe('400 invalid_input');
    expect(badName.error.details[0].field).toBe('roomName');
    expect(err(call(worker, 'POST', '/rooms', { roomName: 'DISC-mine' }))).toBe('400 INVALID_ROOM_NAME');
    for (const [method, path, body] of [
      ['POST', '/rooms/nowhere/enter', { agentName: 'helper' }],
      ['POST', '/rooms/nowhere/leave', { agentName: 'helper' }],
      ['POST', '/rooms/nowhere/messages', { agentName: 'helper', message: 'hi' }],
      ['GET', '/rooms/nowhere/messages', {}],
      ['GET', '/rooms/nowhere/users', {}],
      ['POST', '/rooms/nowhere/clear', { confirm: true }],
    ] as const) {
      const tok = path.endsWith('clear') ? coord : worker;
      expect(err(call(tok, method, path, body)), path).toBe('404 ROOM_NOT_FOUND');
    }
    // Sending before entering, entering twice, a council agent's name, another client's name.
    expect(err(call(worker, 'POST', '/rooms/dev-team/messages', { agentName: 'helper', message: 'hi' }))).toBe(
      '404 AGENT_NOT_FOUND',
    );
    expect(err(call(worker, 'POST', '/rooms/dev-team/leave', { agentName: 'helper' }))).toBe('404 AGENT_NOT_FOUND');
    call(worker, 'POST', '/rooms/dev-team/enter', { agentName: 'helper' });
    expect(err(call(worker, 'POST', '/rooms/dev-team/enter', { agentName: 'helper' }))).toBe(
      '409 AGENT_ALREADY_IN_ROOM',
    );
    expect(err(call(worker, 'POST', '/rooms/dev-team/enter', { agentName: 'devils_advocate' }))).toBe(
      '403 AGENT_NAME_NOT_OWN',
    );
    // A client named as Kaigi speaks in a room (rooms' reserved names) cannot be a member.
    expect(err(call(client(k, 'council', 'worker'), 'POST', '/rooms/dev-team/enter', {}))).toBe(
      '409 AGENT_NAME_RESERVED',
    );
    call(worker, 'POST', '/rooms', { roomName: 'ops' });
    // A member is its client: another client can neither enter, speak nor leave as helper.
    expect(err(call(other, 'POST', '/rooms/ops/enter', { agentName: 'helper' }))).toBe('403 AGENT_NAME_NOT_OWN');
    expect(err(call(other, 'POST', '/rooms/dev-team/messages', { agentName: 'helper', message: 'x' }))).toBe(
      '403 AGENT_NAME_NOT_OWN',
    );
    expect(err(call(other, 'POST', '/rooms/dev-team/leave', { agentName: 'helper' }))).toBe('403 AGENT_NAME_NOT_OWN');
    // Messages: blank, not text.
    expect(err(call(worker, 'POST', '/rooms/dev-team/messages', { agentName: 'helper', message: '  ' }))).toBe(
      '400 INVALID_MESSAGE_FORMAT',
    );
    const notText = call(worker, 'POST', '/rooms/dev-team/messages', { agentName: 'helper', message: 42 });
    expect(err(notText)).toBe('400 invalid_input');
    expect(notText.error.details[0].field).toBe('message');
    // Paging inputs over the query string.
    const noName = call(viewer, 'GET', '/rooms/dev-team/messages', { mentionsOnly: 'true' });
    expect(err(noName)).toBe('400 invalid_input');
    expect(noName.error.details[0].field).toBe('agentName');
    expect(err(call(viewer, 'GET', '/rooms/dev-team/messages', { limit: '0' }))).toBe('400 invalid_input');
    // Leaving, then leaving again or sending.
    call(worker, 'POST', '/rooms/dev-team/leave', { agentName: 'helper' });
    expect(err(call(worker, 'POST', '/rooms/dev-team/leave', { agentName: 'helper' }))).toBe('409 AGENT_NOT_IN_ROOM');
    expect(err(call(worker, 'POST', '/rooms/dev-team/messages', { agentName: 'helper', message: 'x' }))).toBe(
      '409 AGENT_NOT_IN_ROOM',
    );
    // The other client enters under its own name.
    expect(call(other, 'POST', '/rooms/ops/enter', {}).status).toBe(200);
    // Roles: a viewer reads but writes nothing; only a coordinator or admin clears.
    expect(err(call(viewer, 'POST', '/rooms', { roomName: 'v' }))).toBe('403 forbidden');
    expect(err(call(viewer, 'POST', '/rooms/dev-team/enter', { agentName: 'v1' }))).toBe('403 forbidden');
    expect(err(call(worker, 'POST', '/rooms/dev-team/clear', { confirm: true }))).toBe('403 forbidden');
    expect(call(viewer, 'GET', '/rooms').status).toBe(200);
    // Nothing a refused call tried was written.
    expect(k.records('rooms').map((r) => r.room_name)).toEqual(['dev-team', 'ops']);
    expect(k.records('room_messages')).toEqual([]);
    expect(auditOk(k)).toBe(true);
  });

  it('holds the limits in Settings', () => {
    const { k, worker, coord } = setup();
    editConfig(k, 'settings', 'rooms.max_rooms', 'value', '2');
    editConfig(k, 'settings', 'rooms.max_name_chars', 'value', '8');
    editConfig(k, 'settings', 'rooms.max_message_chars', 'value', '100');
    editConfig(k, 'settings', 'rooms.max_messages_per_room', 'value', '3');
    const tooLong = call(worker, 'POST', '/rooms', { roomName: 'abcdefghi' });
    expect([tooLong.status, tooLong.error.code]).toEqual([413, 'INVALID_ROOM_NAME']);
    expect(call(worker, 'POST', '/rooms', { roomName: 'abcdefgh' }).status).toBe(200);
    expect(call(worker, 'POST', '/rooms', { roomName: 'r2' }).status).toBe(200);
    const third = call(worker, 'POST', '/rooms', { roomName: 'r3' });
    expect([third.status, third.error.code]).toEqual([409, 'ROOM_LIMIT_REACHED']);
    // A client whose name is longer than rooms.max_name_chars cannot be a member.
    const longAgent = call(client(k, 'agent_123', 'worker'), 'POST', '/rooms/r2/enter', {});
    expect([longAgent.status, longAgent.error.code]).toEqual([413, 'INVALID_AGENT_NAME']);
    call(worker, 'POST', '/rooms/r2/enter', { agentName: 'helper' });
    const big = call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: 'x'.repeat(101) });
    expect([big.status, big.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    // Characters, not UTF-16 units: 100 emoji fit.
    expect(call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: '😀'.repeat(100) }).status).toBe(
      200,
    );
    const bigMeta = call(worker, 'POST', '/rooms/r2/messages', {
      agentName: 'helper',
      message: 'm',
      metadata: { note: 'y'.repeat(100) },
    });
    expect([bigMeta.status, bigMeta.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    expect(call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: 'two' }).status).toBe(200);
    expect(call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: 'three' }).status).toBe(200);
    const full = call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: 'four' });
    expect([full.status, full.error.code]).toEqual([409, 'ROOM_FULL']);
    // Clearing makes room again.
    expect(call(coord, 'POST', '/rooms/r2/clear', { confirm: true }).clearedCount).toBe(3);
    expect(call(worker, 'POST', '/rooms/r2/messages', { agentName: 'helper', message: 'four' }).status).toBe(200);
  });

  it('pages back from the newest, with numbers and flags from the query string', () => {
    const { worker, viewer } = setup();
    call(worker, 'POST', '/rooms', { roomName: 'paging' });
    call(worker, 'POST', '/rooms/paging/enter', { agentName: 'helper' });
    for (let i = 1; i <= 7; i++)
      call(worker, 'POST', '/rooms/paging/messages', {
        agentName: 'helper',
        message: i % 3 === 0 ? `m${i} for @bob` : `m${i}`,
      });
    const page = (q: Record<string, string>) => {
      const r = call(viewer, 'GET', '/rooms/paging/messages', q);
      expect(r.status).toBe(200);
      return { texts: r.messages.map((m: any) => m.message), count: r.count, hasMore: r.hasMore };
    };
    expect(page({ limit: '3' })).toEqual({ texts: ['m5', 'm6 for @bob', 'm7'], count: 3, hasMore: true });
    expect(page({ limit: '3', offset: '3' })).toEqual({
      texts: ['m2', 'm3 for @bob', 'm4'],
      count: 3,
      hasMore: true,
    });
    expect(page({ limit: '3', offset: '6' })).toEqual({ texts: ['m1'], count: 1, hasMore: false });
    expect(page({}).count).toBe(7);
    expect(page({ agentName: 'bob', mentionsOnly: 'true' })).toEqual({
      texts: ['m3 for @bob', 'm6 for @bob'],
      count: 2,
      hasMore: false,
    });
    expect(page({ agentName: 'bob', mentionsOnly: 'true', limit: '1' })).toEqual({
      texts: ['m6 for @bob'],
      count: 1,
      hasMore: true,
    });
    expect(page({ agentName: 'bob', mentionsOnly: 'false' }).count).toBe(7);
  });

  it('clears only with confirm: true, hiding the messages and keeping them and their audit rows', () => {
    const { k, worker, coord, viewer } = setup();
    call(worker, 'POST', '/rooms', { roomName: 'tidy' });
    call(worker, 'POST', '/rooms/tidy/enter', { agentName: 'helper' });
    for (const m of ['one', 'two', 'three'])
      call(worker, 'POST', '/rooms/tidy/messages', { agentName: 'helper', message: m });
    for (const body of [{}, { confirm: false }]) {
      const r = call(coord, 'POST', '/rooms/tidy/clear', body);
      expect([r.status, r.error.code]).toEqual([400, 'CONFIRMATION_REQUIRED']);
    }
    const text = call(coord, 'POST', '/rooms/tidy/clear', { confirm: 'true' });
    expect([text.status, text.error.details[0].field]).toEqual([400, 'confirm']);
    expect(call(viewer, 'GET', '/rooms/tidy/messages').count).toBe(3);
    expect(call(coord, 'POST', '/rooms/tidy/clear', { confirm: true })).toEqual({
      status: 200,
      success: true,
      roomName: 'tidy',
      clearedCount: 3,
    });
    expect(call(viewer, 'GET', '/rooms/tidy/messages')).toMatchObject({
      count: 0,
      messages: [],
      hasMore: false,
    });
    // The rows and their audit rows are all still there, and the chain verifies.
    const rows = k.records('room_messages');
    expect(rows.map((r) => r.message)).toEqual(['one', 'two', 'three']);
    const audited = k
      .records('audit')
      .filter((r) => r.tab === 'Room Messages')
      .map((r) => r.row_key);
    expect(audited).toEqual(rows.map((r) => r.message_id));
    const cleared = k.records('audit').filter((r) => r.event === 'room_cleared');
    expect(cleared.map((r) => [r.actor, r.row_key])).toEqual([['api:lead', 'tidy']]);
    expect(k.records('rooms')[0]).toMatchObject({ cleared_through: 3, cleared_by: 'lead' });
    expect(auditOk(k)).toBe(true);
    // The room goes on after the clear, its numbering too.
    call(worker, 'POST', '/rooms/tidy/messages', { agentName: 'helper', message: 'four' });
    const after = call(viewer, 'GET', '/rooms/tidy/messages');
    expect(after.messages.map((m: any) => m.message)).toEqual(['four']);
    expect(k.records('room_messages').map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(call(viewer, 'GET', '/rooms').rooms.find((r: any) => r.name === 'tidy').messageCount).toBe(1);
  });

  it('stores and returns hostile text exactly, as text', () => {
    const { k, worker, viewer } = setup();
    call(worker, 'POST', '/rooms', { roomName: 'hostile', description: '=HYPERLINK("http://x","y")' });
    call(worker, 'POST', '/rooms/hostile/enter', { agentName: 'helper', profile: { description: '+1+1' } });
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
      const r = call(worker, 'POST', '/rooms/hostile/messages', {
        agentName: 'helper',
        message,
        metadata: { note: '=1+1', html: '<script>x</script>' },
      });
      expect(r.status).toBe(200);
      ids.push(r.messageId);
    }
    const got = call(viewer, 'GET', '/rooms/hostile/messages', { limit: '50' });
    expect(got.messages.map((m: any) => m.message)).toEqual(texts);
    expect(got.messages[0].metadata).toEqual({ note: '=1+1', html: '<script>x</script>' });
    expect(k.records('room_messages').map((r) => r.message)).toEqual(texts);
    expect(k.records('rooms')[0].description).toBe('=HYPERLINK("http://x","y")');
    const over = call(worker, 'POST', '/rooms/hostile/messages', {
      agentName: 'helper',
      message: 'x'.repeat(20_001),
    });
    expect([over.status, over.error.code]).toEqual([413, 'MESSAGE_TOO_LARGE']);
    expect(auditOk(k)).toBe(true);
  });

  it('shows members offline once their calls are older than the presence window', () => {
    const { k, worker, viewer } = setup();
    call(worker, 'POST', '/rooms', { roomName: 'here' });
    call(worker, 'POST', '/rooms/here/enter', { agentName: 'helper' });
    const status = () => call(viewer, 'GET', '/rooms/here/users').users[0].status;
    expect(status()).toBe('online');
    k.advance(301_000);
    expect(status()).toBe('offline');
    // Any call by the client it entered with brings it back.
    call(worker, 'GET', '/rooms');
    expect(status()).toBe('online');
  });
});
