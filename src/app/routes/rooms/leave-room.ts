// leave_room (POST /rooms/{roomName}/leave): an agent name leaves a room it entered.
import { z } from '../../../core/zod.js';
import { leaveRoom } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { agentName, roomName } from './inputs.js';

export const leaveRoomOp = defineOperation({
  name: 'leave_room',
  description: 'Leaves a room the agent name entered through this API client.',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/leave' },
  input: () => z.object({ roomName: roomName(), agentName: agentName() }),
  handler: (input, ctx) => leaveRoom(roomCall(ctx), input),
});
