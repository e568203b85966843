// Rooms in-process: create, enter, send with mentions, read back, list users and leave, with the presence the
// cache keeps and the rows the Rooms tabs keep; a mention of an agent queues its reply.
import { describe, expect, it } from 'vitest';
import { getMessages, listRoomUsers } from '../../../src/app/rooms/room-reads.js';
import { createRoom, enterRoom, leaveRoom, type RoomCall, sendMessage } from '../../../src/app/rooms/room-writes.js';
import { ConflictError } from '../../../src/core/errors.js';
import { type Kaigi, kaigi } from './inproc.js';

const call = (k: Kaigi, requestKey = ''): RoomCall => ({
  council: k.council(),
  caller: { name: 'agent1', role: 'worker' },
  requestKey,
});
const page = { limit: 50, offset: 0, mentionsOnly: false };

describe('rooms in-process', () => {
  it('creates, enters, sends, reads, lists users and leaves', () => {
    const k = kaigi();
    expect(createRoom(call(k), { roomName: 'dev-team', description: 'Development' })).toMatchObject({
      success: true,
      roomName: 'dev-team',
    });
    expect(() => createRoom(call(k), { roomName: 'dev-team' })).toThrow(ConflictError);
    enterRoom(call(k), { roomName: 'dev-team', agentName: 'agent1' });
    const sent = sendMessage(call(k, 'req-1'), {
      roomName: 'dev-team',
      agentName: 'agent1',
      message: 'Hello @agent2, mail me at a@b.com',
    });
    expect(sent).toMatchObject({ success: true, mentions: ['agent2'] });
    expect(sent.messageId).toMatch(/^RMSG-\d+$/);
    // The same request key sends nothing twice.
    expect(
      sendMessage(call(k, 'req-1'), {
        roomName: 'dev-team',
        agentName: 'agent1',
        message: 'Hello @agent2, mail me at a@b.com',
      }).messageId,
    ).toBe(sent.messageId);
    const got = getMessages(call(k), { roomName: 'dev-team', ...page });
    expect(got).toMatchObject({ roomName: 'dev-team', count: 1, hasMore: false });
    expect(got.messages[0]).toMatchObject({ id: sent.messageId, agentName: 'agent1', mentions: ['agent2'] });
    const users = listRoomUsers(call(k), { roomName: 'dev-team' });
    expect(users.users.map((u) => [u.name, u.status, u.messageCount])).toEqual([['agent1', 'online', 1]]);
    leaveRoom(call(k), { roomName: 'dev-team', agentName: 'agent1' });
    expect(listRoomUsers(call(k), { roomName: 'dev-team' }).users).toEqual([]);
    expect(k.records('room_messages')).toHaveLength(1);
  });
});
