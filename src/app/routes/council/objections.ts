// POST /objections: an API client objects to a decision; the objection is filed OPEN and processed from the queue.
import { fileObjectionInput } from '../../../core/api/api-schemas.js';
import { reworkBudget } from '../../api/api-budget.js';
import { apiCouncil } from '../../api/api-env.js';
import { reworkForecast } from './rework-forecast.js';
import { enqueueOnce } from '../../api/api-tasks.js';
import { refuseUnlessDecided } from '../../discussions/discussion-status.js';
import { refuseIfInExecution } from '../../orders/order-execution.js';
import { objectionPayload } from '../../discussions/requests.js';
import { fileObjectionRow } from '../../discussions/objection-records.js';
import { defineOperation } from '../route.js';
import { TASK_KINDS } from '../../../core/queue-tasks.js';

export const fileObjection = defineOperation({
  name: 'file_objection',
  description: 'Object to a discussion’s decision with a reason (and an alternative, evidence, urgency).',
  mutates: true,
  tool: false,
  http: { method: 'POST', path: '/objections' },
  roles: ['coordinator', 'admin'],
  input: fileObjectionInput,
  example: {
    discussion_id: 'DISC-2026-11-26-001',
    reason: 'The contact figures for last week are incomplete.',
    urgency: 'HIGH',
    kind: 'data_error',
  },
  handler: (input, ctx) => {
    const council = apiCouncil();
    refuseUnlessDecided(council, input.discussion_id);
    refuseIfInExecution(council, input.discussion_id);
    // The objector is the client the token belongs to, as every audit row names a client: never an agent's id.
    const payload = objectionPayload(input, { source: 'api', objector: `api:${ctx.caller.name}` });
    const r = enqueueOnce(council, {
      task: TASK_KINDS.objection,
      payload,
      priority: payload.urgency,
      dedupeKey: '',
      actor: `api:${ctx.caller.name}`,
      call: 'POST /objections',
      reserveDiscussion: false,
      // The objection's OPEN row is written with its task, so it counts among the open ones from now on.
      file: (c, p) => fileObjectionRow(c, p, new Date(council.now()).toISOString()),
      // Checked and held against the client's daily budget at the discussion's forecast, charged as it runs.
      budget: reworkBudget(council, ctx.caller.name, input.discussion_id, reworkForecast(council, input.discussion_id)),
    });
    return { status: 202, task_id: r.task_id, discussion_id: input.discussion_id };
  },
});
