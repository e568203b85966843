// create_room (POST /rooms): a free room clients can enter and talk in.
import { z } from '../../../core/zod.js';
import { createRoom } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { roomName } from './inputs.js';

export const createRoomOp = defineOperation({
  name: 'create_room',
  description: 'Creates a room (name: letters, digits, hyphens, underscores) with an optional description.',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms' },
  input: () => z.object({ roomName: roomName(), description: z.string().optional().describe('What the room is for') }),
  handler: (input, ctx) => createRoom(roomCall(ctx), input),
});
