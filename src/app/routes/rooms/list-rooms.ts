// list_rooms (GET /rooms): free rooms and the discussions' read-only rooms, with whether an agent is in each.
import { z } from '../../../core/zod.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { listRooms } from '../../rooms/room-reads.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { agentName, flagInput } from './inputs.js';

export const listRoomsOp = defineOperation({
  name: 'list_rooms',
  description:
    'Lists the rooms (free rooms, and every discussion as a read-only room) with users and messages; with agentName, whether it is in each.',
  roles: ALL_ROLES,
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/rooms' },
  input: () =>
    z.object({
      agentName: agentName().optional(),
      joinedOnly: flagInput().optional().describe('With agentName: only the rooms it is in'),
    }),
  handler: (input, ctx) => listRooms(roomCall(ctx), input),
});
