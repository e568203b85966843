// An inconclusive decision's one recheck as a pure plan: its second Outcomes row, its learnings moved, column M.
import { firstAnswersRecord } from './first-answers.js';
import type { LearningRules, Learning } from './memory.js';
import { recheckNote, type OutcomeLine } from './recheck.js';
import { moveLearnings } from './review-learnings.js';
import type { LifecycleWorld } from './review-lifecycle.js';
import { write, type PlannedAudit, type ReviewOp } from './review-ops.js';
import { outcomeOp } from './review-plan.js';
import type { Assessment } from './review-types.js';

// What a recheck's plan needs of the world: the learning rules besides the clock, language and commit's counters.
export interface RecheckWorld extends LifecycleWorld {
  rules: LearningRules;
}

// The recheck's commit, in this order: the Outcomes row (its notes name the first row, which is what makes it the
// decision's last look), the learnings the decision applied moved by the new verdict (the same path as a first
// verdict; the first, inconclusive one moved them only by its small step), and column M set to the new verdict as
// the commit point. The discussion keeps its status: its first review closed it. Agents' records, reflections and
// learned trust are left as the first review made them, so that no opinion is scored twice.
export function planRecheck(
  a: Assessment,
  first: OutcomeLine,
  learnings: readonly Learning[],
  w: RecheckWorld,
): { ops: ReviewOp[]; learnings: Learning[] } {
  const at = new Date(w.now);
  const chosen = a.order.actions.map((x) => x.action_type);
  const outcomeId = `OUT-${w.next('outcome')}`;
  const row = outcomeOp(a, outcomeId, at, firstAnswersRecord(a.discussion.messages, chosen));
  const note = recheckNote(first);
  const ops: ReviewOp[] = [
    row.kind === 'write' && row.tab === 'outcomes'
      ? { ...row, values: { ...row.values, notes: note }, audit: withRecheck(row.audit, first) }
      : row,
  ];
  const moved = moveLearnings(a, learnings, w.rules, w);
  ops.push(
    ...moved.ops,
    write(
      'discussions',
      'marker',
      a.log_row,
      { outcome_evaluated: a.ev.verdict },
      {
        actor: 'kaigi',
        event: 'log_row_updated',
        tab: 'Discussion Log',
        row_key: a.discussion_id,
        payload: { outcome_evaluated: a.ev.verdict, recheck_of: first.outcome_id },
      },
      `Discussion Log:${a.discussion_id}`,
    ),
  );
  return { ops, learnings: moved.learnings };
}

function withRecheck(audit: PlannedAudit, first: OutcomeLine): PlannedAudit {
  return { ...audit, payload: { ...audit.payload, recheck_of: first.outcome_id } };
}
