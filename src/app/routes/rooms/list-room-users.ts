// list_room_users (GET /rooms/{roomName}/users): who is in a room, online or offline, with their profiles.
import { z } from '../../../core/zod.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { listRoomUsers } from '../../rooms/room-reads.js';
import { defineOperation } from '../route.js';
import { roomCall } from './call.js';
import { roomName } from './inputs.js';

export const listRoomUsersOp = defineOperation({
  name: 'list_room_users',
  description: 'Lists the users in a room: online or offline (a recent call), their message count and profile.',
  roles: ALL_ROLES,
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/rooms/{roomName}/users' },
  input: () => z.object({ roomName: roomName() }),
  handler: (input, ctx) => listRoomUsers(roomCall(ctx), input),
});
