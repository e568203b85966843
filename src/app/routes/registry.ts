// Every operation of the web API and MCP: adding one is a module in this folder plus one line in its group.
import type { Operation } from './route.js';
import { getStatus } from './status.js';

export const OPERATIONS: readonly Operation[] = [getStatus];
