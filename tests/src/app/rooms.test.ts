// Rooms through the built file's doGet/doPost: every operation over REST with the rooms protocol's shapes. Errors,
// limits, paging, clearing, hostile text and presence run in-process in rooms-rest.inproc.test.ts.
import { describe, expect, it } from 'vitest';
import { ok } from '../../council-helpers.js';
import { call, setup } from './rooms-helpers.js';

describe('rooms over REST', () => {
  it('creates, enters, sends, reads, lists users and leaves, with the rooms protocol shapes', async () => {
    const { rt, worker, viewer } = await setup();
    expect(await call(rt, worker, 'POST', '/rooms', { roomName: 'dev-team', description: 'Development' })).toEqual({
      status: 200,
      success: true,
      roomName: 'dev-team',
      message: 'Room dev-team was created.',
    });
    const entered = await call(rt, worker, 'POST', '/rooms/dev-team/enter', {
      agentName: 'helper',
      profile: { role: 'coordinator', description: 'plans', capabilities: ['task_planning'], metadata: { v: 2 } },
    });
    expect(entered).toMatchObject({ status: 200, success: true, roomName: 'dev-team' });
    const sent = await call(rt, worker, 'POST', '/rooms/dev-team/messages', {
      agentName: 'helper',
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
      agentName: 'helper',
      message: 'Hello @coordinator and @agent2, mail me at a@b.com',
      timestamp: sent.timestamp,
      mentions: ['coordinator', 'agent2'],
      metadata: { k: 1 },
    });
    const users = await call(rt, viewer, 'GET', '/rooms/dev-team/users');
    expect(users).toMatchObject({ status: 200, roomName: 'dev-team', onlineCount: 1 });
    expect(users.users).toEqual([
      {
        name: 'helper',
        status: 'online',
        messageCount: 1,
        profile: { role: 'coordinator', description: 'plans', capabilities: ['task_planning'], metadata: { v: 2 } },
      },
    ]);
    const listed = await call(rt, viewer, 'GET', '/rooms', { agentName: 'helper' });
    expect(listed.rooms.find((r: any) => r.name === 'dev-team')).toEqual({
      name: 'dev-team',
      description: 'Development',
      userCount: 1,
      messageCount: 1,
      isJoined: true,
      readOnly: false,
    });
    expect(await call(rt, worker, 'POST', '/rooms/dev-team/leave', { agentName: 'helper' })).toMatchObject({
      status: 200,
      success: true,
    });
    expect((await call(rt, viewer, 'GET', '/rooms/dev-team/users')).users).toEqual([]);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });
});
