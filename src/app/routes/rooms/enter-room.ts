// enter_room (POST /rooms/{roomName}/enter): an agent name enters a room, with an optional profile.
import { z } from '../../../core/zod.js';
import { enterRoom } from '../../rooms/room-writes.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { ownAgentName, profileInput, roomName } from './inputs.js';

export const enterRoomOp = defineOperation({
  name: 'enter_room',
  description:
    'Enters a room as this API client (its name is the member’s name; agentName, if sent, must be it), with an optional profile; a discussion’s room may be entered to watch it.',
  roles: ['worker', 'coordinator', 'admin'],
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/rooms/{roomName}/enter' },
  input: () => z.object({ roomName: roomName(), agentName: ownAgentName(), profile: profileInput().optional() }),
  handler: (input, ctx) => enterRoom(roomCall(ctx), input),
});
