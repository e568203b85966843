// The room operations of the rooms protocol, each a REST route and an MCP tool under that protocol's name.
import type { Operation } from '../route.js';
import { clearRoomMessagesOp } from './clear-room-messages.js';
import { createRoomOp } from './create-room.js';
import { enterRoomOp } from './enter-room.js';
import { getMessagesOp } from './get-messages.js';
import { leaveRoomOp } from './leave-room.js';
import { listRoomUsersOp } from './list-room-users.js';
import { listRoomsOp } from './list-rooms.js';
import { sendMessageOp } from './send-message.js';

export const ROOM_OPERATIONS: readonly Operation[] = [
  listRoomsOp,
  createRoomOp,
  enterRoomOp,
  leaveRoomOp,
  listRoomUsersOp,
  sendMessageOp,
  getMessagesOp,
  clearRoomMessagesOp,
];
