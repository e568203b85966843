// The agent API (/agent/…) with its own bodies: each an alias of a Kaigi route (same_as), for clients written to
// that API.
import type { Operation } from '../route.js';
import { seedStatus } from './agent-status.js';
import { seedAssignTask } from './assign-task.js';
import { seedTaskResult } from './task-result.js';

export const AGENT_OPERATIONS: readonly Operation[] = [seedAssignTask, seedTaskResult, seedStatus];
