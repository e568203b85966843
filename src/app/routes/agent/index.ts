// Seed 002's own agent API, with the seed's bodies: each an alias of a Kaigi route (same_as), for clients written to
// the seed.
import type { Operation } from '../route.js';
import { seedStatus } from './agent-status.js';
import { seedAssignTask } from './assign-task.js';
import { seedTaskResult } from './task-result.js';

export const AGENT_OPERATIONS: readonly Operation[] = [seedAssignTask, seedTaskResult, seedStatus];
