// clear_room_messages (POST /rooms/{roomName}/clear): hides a room's messages from its view; they and their audit
// rows stay in the tabs.
import { z } from '../../../core/zod.js';
import { clearRoom } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { roomName } from './inputs.js';

export const clearRoomMessagesOp = defineOperation({
  name: 'clear_room_messages',
  description: 'Clears a room’s messages from its view (they stay on record); needs confirm: true.',
  roles: ['coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/clear' },
  // A missing or false confirm gets CONFIRMATION_REQUIRED from the handler; anything but a boolean, a schema error.
  input: () => z.object({ roomName: roomName(), confirm: z.boolean().optional().describe('Must be true') }),
  handler: (input, ctx) => clearRoom(roomCall(ctx), input),
});
