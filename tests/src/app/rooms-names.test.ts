// A room member's name is its API client's (security round two, N11): a client that names another is refused 403
// naming agentName, with nothing written, so it can no longer enter under another client's name and lock the real
// client out. Over REST and MCP, through the built file.
import { describe, expect, it } from 'vitest';
import { ok } from '../../council-helpers.js';
import { column, records } from '../../helpers.js';
import { call, mcp, setup } from './rooms-helpers.js';

describe('room member names', () => {
  it('are the clients’ own: naming another client is refused, and the real client is never locked out', async () => {
    const { rt, worker, coord, viewer } = await setup();
    expect((await call(rt, worker, 'POST', '/rooms', { roomName: 'ops' })).status).toBe(200);
    const before = records(rt, 'room_members').length;
    // The worker client (helper) tries to enter, speak and leave as the coordinator client (lead).
    for (const [path, body] of [
      ['/rooms/ops/enter', { agentName: 'lead' }],
      ['/rooms/ops/messages', { agentName: 'lead', message: 'I am lead' }],
      ['/rooms/ops/leave', { agentName: 'lead' }],
    ] as const) {
      const a = await call(rt, worker, 'POST', path, body);
      expect(a, path).toMatchObject({ status: 403, error: { code: 'AGENT_NAME_NOT_OWN' } });
      expect(a.error.message).toMatch(/^agentName: /);
    }
    const viaMcp = await mcp(rt, worker, 1, 'enter_room', { roomName: 'ops', agentName: 'lead' });
    expect(viaMcp.result.isError).toBe(true);
    expect(viaMcp.result.structuredContent).toMatchObject({ status: 403, error: { code: 'AGENT_NAME_NOT_OWN' } });
    // Nothing was written by any of them.
    expect(records(rt, 'room_members').length).toBe(before);
    expect(records(rt, 'room_messages')).toEqual([]);
    // The real lead enters under its own name; helper enters as itself, by default or by its own name.
    expect(await call(rt, coord, 'POST', '/rooms/ops/enter', { agentName: 'lead' })).toMatchObject({ status: 200 });
    expect(await call(rt, worker, 'POST', '/rooms/ops/enter', {})).toMatchObject({ status: 200 });
    const sent = await call(rt, worker, 'POST', '/rooms/ops/messages', { message: 'hello @lead' });
    expect(sent).toMatchObject({ status: 200, mentions: ['lead'] });
    const users = await call(rt, viewer, 'GET', '/rooms/ops/users');
    expect(users.users.map((u: { name: string }) => u.name).sort()).toEqual(['helper', 'lead']);
    const got = await call(rt, viewer, 'GET', '/rooms/ops/messages');
    expect(got.messages.map((m: { agentName: string }) => m.agentName)).toEqual(['helper']);
    expect(await call(rt, worker, 'POST', '/rooms/ops/leave', { agentName: 'helper' })).toMatchObject({ status: 200 });
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('take over a row another client left under this client’s name (written before names were the clients’)', async () => {
    const { rt, worker, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'ops' });
    expect(await call(rt, worker, 'POST', '/rooms/ops/enter', {})).toMatchObject({ status: 200 });
    // As such a row reads: helper, in the room, entered by mallory.
    const sheet = rt.workbook.sheetByName('Room Members')!;
    rt.workbook.setValues(sheet, 2, column('room_members', 'client'), 1, 1, [['mallory']]);
    // helper may not speak through mallory's row, and enters under its own name again.
    const said = await call(rt, worker, 'POST', '/rooms/ops/messages', { message: 'hi' });
    expect([said.status, said.error.code]).toEqual([409, 'AGENT_NOT_IN_ROOM']);
    expect(await call(rt, worker, 'POST', '/rooms/ops/enter', {})).toMatchObject({ status: 200 });
    expect(records(rt, 'room_members').map((m) => [m.agent_name, m.client, m.status])).toEqual([
      ['helper', 'helper', 'in'],
    ]);
    const entered = records(rt, 'audit').filter((r) => r.event === 'room_entered');
    expect(JSON.parse(String(entered.pop()!.payload_json))).toMatchObject({ room: 'ops', replaced_client: 'mallory' });
    expect((await call(rt, worker, 'POST', '/rooms/ops/messages', { message: 'hi' })).status).toBe(200);
    expect((await call(rt, viewer, 'GET', '/rooms/ops/users')).users.map((u: { name: string }) => u.name)).toEqual([
      'helper',
    ]);
  });
});
