// An Objections row's state as read: the four states, and the two values older rows hold read as their nearest state.
import { OBJECTION_STATES, type ObjectionState } from '../types.js';

// RESOLVED was an accepted objection the decider had decided again on; FAILED one whose processing failed, so the
// original order ran on: the order stood, as for a rejection.
const LEGACY: Record<string, ObjectionState> = { RESOLVED: 'ACCEPTED', FAILED: 'REJECTED' };

export function objectionState(stored: unknown): ObjectionState | null {
  const v = String(stored ?? '');
  if ((OBJECTION_STATES as readonly string[]).includes(v)) return v as ObjectionState;
  return LEGACY[v] ?? null;
}
