// The council's operations (seed 002): tasks, their results, status, objections and escalations.
import type { Operation } from '../route.js';
import { getStatus } from './status.js';

export const COUNCIL_OPERATIONS: readonly Operation[] = [getStatus];
