// POST /escalations/{id}: an API client resolves an ESCALATED discussion — approve, return with guidance, or reject.
import { resolveEscalationInput } from '../../../core/api/api-schemas.js';
import { reworkBudget } from '../../api/api-budget.js';
import { apiCouncil } from '../../api/api-env.js';
import { reworkForecast } from './rework-forecast.js';
import { enqueueOnce } from '../../api/api-tasks.js';
import { resolutionPayload } from '../../discussions/requests.js';
import { withCheckedOrder } from '../../steer/escalation.js';
import { defineOperation } from '../route.js';
import { TASK_KINDS } from '../../../core/queue-tasks.js';
import { refuseUnlessEscalated } from '../../discussions/discussion-status.js';

export const resolveEscalation = defineOperation({
  name: 'resolve_escalation',
  description:
    'Resolve an escalated discussion: approve (optionally with an edited order), return to Phase 5 with guidance, or reject.',
  mutates: true,
  tool: false,
  http: { method: 'POST', path: '/escalations/{id}' },
  roles: ['coordinator', 'admin'],
  input: resolveEscalationInput,
  example: { action: 'return', guidance: 'Weigh the cost of the second call against the week’s target.' },
  handler: (input, ctx) => {
    const council = apiCouncil();
    // Checked now for a clear answer; the task checks again when it runs, as the discussion may move meanwhile.
    refuseUnlessEscalated(council, input.id);
    // Resolved by the client the token belongs to (`api:NAME`, as the audit names clients); an edited order is
    // checked field by field now (and again by the task, as an EXECUTION_ORDER).
    const payload = resolutionPayload(
      withCheckedOrder(council, {
        discussion_id: input.id,
        action: input.action,
        guidance: input.guidance,
        order: input.order,
      }),
      `api:${ctx.caller.name}`,
    );
    const r = enqueueOnce(council, {
      task: TASK_KINDS.resolution,
      payload,
      priority: 'HIGH',
      dedupeKey: '',
      actor: `api:${ctx.caller.name}`,
      call: 'POST /escalations/{id}',
      reserveDiscussion: false,
      // Checked and held against the client's daily budget at the discussion's forecast, charged as it runs.
      budget: reworkBudget(council, ctx.caller.name, input.id, reworkForecast(council, input.id)),
    });
    return { status: 202, task_id: r.task_id, discussion_id: input.id };
  },
});
