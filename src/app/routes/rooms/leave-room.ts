// leave_room (POST /rooms/{roomName}/leave): an agent name leaves a room it entered.
import { z } from '../../../core/zod.js';
import { leaveRoom } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { ownAgentName, roomName } from './inputs.js';

export const leaveRoomOp = defineOperation({
  name: 'leave_room',
  description: 'Leaves a room this API client entered (an admin may name any member with agentName).',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/leave' },
  input: () => z.object({ roomName: roomName(), agentName: ownAgentName() }),
  handler: (input, ctx) => leaveRoom(roomCall(ctx), input),
});
