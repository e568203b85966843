// The council's operations: tasks, their results, status, objections, escalations, and the members and trigger
// types a discussion may be started for.
import type { Operation } from '../route.js';
import { resolveEscalation } from './escalations.js';
import { getDiscussion } from './get-discussion.js';
import { listMembersOp } from './list-members.js';
import { listTriggerTypesOp } from './list-trigger-types.js';
import { fileObjection } from './objections.js';
import { reportResult } from './report-result.js';
import { startDiscussion } from './start-discussion.js';
import { getStatus } from './status.js';

export const COUNCIL_OPERATIONS: readonly Operation[] = [
  startDiscussion,
  getDiscussion,
  reportResult,
  getStatus,
  fileObjection,
  resolveEscalation,
  listMembersOp,
  listTriggerTypesOp,
];
