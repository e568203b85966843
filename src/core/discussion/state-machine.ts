// The one place discussion status changes are validated; an illegal transition is an error.
import { StateError } from '../errors.js';
import type { Status } from '../types.js';

const TRANSITIONS: Record<Status, readonly Status[]> = {
  OPEN: ['IN_PROGRESS', 'TIMEOUT', 'CLOSED'],
  IN_PROGRESS: ['VOTING', 'ESCALATED', 'TIMEOUT'],
  VOTING: ['DECIDED', 'ESCALATED', 'TIMEOUT'],
  // An accepted objection sends a decision back to deliberation; an unresolved one can escalate.
  DECIDED: ['VOTING', 'ESCALATED', 'CLOSED'],
  // A person approves (DECIDED), returns it to Phase 5 (VOTING) or rejects it (CLOSED); nobody answering within
  // discussion.escalation_timeout_hours ends it (TIMEOUT).
  ESCALATED: ['DECIDED', 'VOTING', 'CLOSED', 'TIMEOUT'],
  CLOSED: [],
  TIMEOUT: [],
};

export class IllegalTransitionError extends StateError {
  constructor(
    readonly from: Status,
    readonly to: Status,
  ) {
    super(`illegal status transition ${from} → ${to}`);
  }
}

export function canTransition(from: Status, to: Status): boolean {
  return TRANSITIONS[from].indexOf(to) >= 0;
}

export function transition(from: Status, to: Status): Status {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
  return to;
}
