// room.reply: a council agent mentioned in a room answers there (src/app/rooms/room-answer.ts), once per message.
import { answerMention } from '../rooms/room-answer.js';
import { TASK_KINDS } from '../../core/queue-tasks.js';
import { defineTask } from './task.js';

export const roomReply = defineTask(TASK_KINDS.roomReply, {
  run(_item, p, { council, deadline }) {
    // A room or message gone, or an agent disabled since, leaves nothing to answer: the task is done either way.
    answerMention(council, p, deadline);
    return { kind: 'done' };
  },
});
