// Whether a discussion's order is still to be reviewed, read from its notes; below plan.ts and review.ts, which both ask.
import type { Discussion } from '../types.js';

// A decision is reviewed once: the note naming it is the mark, and the note of a filed objection is what the
// per-discussion limit counts (notes live with the discussion, so the count survives every later step).
export const mark = (decisionId: string) => `agent review ${decisionId}:`;
const FILED = /^agent review \S+: objection by /;

// Orders still waiting: nothing was reported on them, so an objection can still change them. A discussion decided
// before reviews existed, whose orders were reported on, is not reviewed after the fact.
const UNREPORTED = ['', 'PENDING', 'NOT_STARTED'];

export function needsReview(d: Discussion): boolean {
  const id = d.final_decision?.decision_id;
  return (
    d.status === 'DECIDED' &&
    typeof id === 'string' &&
    UNREPORTED.indexOf(d.execution_status) >= 0 &&
    !d.notes.some((n) => n.indexOf(mark(id)) === 0)
  );
}

export function agentObjections(d: Discussion): number {
  return d.notes.filter((n) => FILED.test(n)).length;
}
