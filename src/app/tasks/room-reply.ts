// room.reply: a council agent mentioned in a room answers there (src/app/rooms/room-answer.ts), once per message.
import { answerMention } from '../rooms/room-answer.js';
import { ROOM_REPLY, type RoomReplyPayload } from '../rooms/reply-queue.js';
import type { TaskHandler } from './task.js';

export const roomReply: TaskHandler = {
  type: ROOM_REPLY,
  run(item, { council, deadline }) {
    const p = item.payload as unknown as RoomReplyPayload;
    if (!p || typeof p.room !== 'string' || typeof p.message_id !== 'string' || typeof p.agent_id !== 'string')
      throw new Error('a room.reply task needs room, message_id and agent_id');
    // A room or message gone, or an agent disabled since, leaves nothing to answer: the task is done either way.
    answerMention(council, p, deadline);
    return { kind: 'done' };
  },
};
