// The room operations of seed 004, each a REST route and an MCP tool under the seed's name.
import type { Operation } from '../route.js';

export const ROOM_OPERATIONS: readonly Operation[] = [];
