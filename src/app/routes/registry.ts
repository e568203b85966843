// Every operation of the web API and MCP: adding one is a module in its group's folder plus one line in the group.
import { AGENT_OPERATIONS } from './agent/index.js';
import { COUNCIL_OPERATIONS } from './council/index.js';
import { KPI_OPERATIONS } from './kpi/index.js';
import { META_OPERATIONS } from './meta/index.js';
import { ORDER_OPERATIONS } from './orders/index.js';
import { ROOM_OPERATIONS } from './rooms/index.js';
import type { Operation } from './route.js';

export const OPERATIONS: readonly Operation[] = [
  ...COUNCIL_OPERATIONS,
  ...ORDER_OPERATIONS,
  ...ROOM_OPERATIONS,
  ...KPI_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...META_OPERATIONS,
];
