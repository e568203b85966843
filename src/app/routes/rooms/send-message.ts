// send_message (POST /rooms/{roomName}/messages): a message to a free room; @agent_id mentions a council agent,
// whose answer follows in the room.
import { z } from '../../../core/zod.js';
import { sendMessage } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { agentName, metadataInput, roomName } from './inputs.js';

export const sendMessageOp = defineOperation({
  name: 'send_message',
  description:
    'Sends a message to a room the agent name is in; @name mentions, and @agent_id of a council agent gets its answer in the room.',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/messages' },
  example: { agentName: 'buddy', message: '@analyst what changed in contacts this week?' },
  input: () =>
    z.object({
      roomName: roomName(),
      agentName: agentName(),
      message: z.string().describe('The message (plain text; @name mentions)'),
      metadata: metadataInput().optional(),
    }),
  handler: (input, ctx) => sendMessage(roomCall(ctx), input),
});
