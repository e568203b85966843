// get_messages (GET /rooms/{roomName}/messages): a page of a room's messages, counted back from the newest.
import { z } from '../../../core/zod.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { getMessages } from '../../rooms/room-reads.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { agentName, flagInput, limitInput, offsetInput, roomName } from './inputs.js';

export const getMessagesOp = defineOperation({
  name: 'get_messages',
  description:
    'Gets a room’s messages in order: the newest `limit` after skipping `offset` newer ones; hasMore says older ones exist; mentionsOnly with agentName keeps the messages mentioning it.',
  roles: ALL_ROLES,
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/rooms/{roomName}/messages' },
  input: () =>
    z
      .object({
        roomName: roomName(),
        agentName: agentName().optional(),
        limit: limitInput().optional().describe('Messages to return, 1–500 (default 50)'),
        offset: offsetInput().optional().describe('Newest messages to skip (default 0)'),
        mentionsOnly: flagInput().optional().describe('Only messages that mention agentName'),
      })
      .refine((v) => !v.mentionsOnly || !!v.agentName, {
        message: 'mentionsOnly needs agentName',
        path: ['agentName'],
      }),
  handler: (input, ctx) =>
    getMessages(roomCall(ctx), {
      roomName: input.roomName,
      agentName: input.agentName,
      limit: input.limit ?? 50,
      offset: input.offset ?? 0,
      mentionsOnly: input.mentionsOnly ?? false,
    }),
});
