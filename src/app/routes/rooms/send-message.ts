// send_message (POST /rooms/{roomName}/messages): a message to a free room; @agent_id mentions a council agent,
// whose answer follows in the room.
import { z } from '../../../core/zod.js';
import { sendMessage } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { metadataInput, ownAgentName, roomName } from './inputs.js';

export const sendMessageOp = defineOperation({
  name: 'send_message',
  description:
    'Sends a message, as this API client, to a room it is in; @name mentions, and @agent_id of a council agent gets its answer in the room.',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/messages' },
  example: { message: '@analyst what changed in contacts this week?' },
  input: () =>
    z.object({
      roomName: roomName(),
      agentName: ownAgentName(),
      message: z.string().describe('The message (plain text; @name mentions)'),
      metadata: metadataInput().optional(),
    }),
  handler: (input, ctx) => sendMessage(roomCall(ctx), input),
});
