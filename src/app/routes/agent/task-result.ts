// POST /agent/tasks/{taskId}/result: reports on the orders of the discussion an agent API task started,
// as POST /tasks/{id}/result does; the answer is that API's {success}.
import { TASK_ID, DISCUSSION_ID } from '../../../core/api/api-schemas.js';
import { NotFoundError } from '../../../core/errors.js';
import { seedKey, seedResultAnswer, seedResultInput } from '../../../core/api/seed-api.js';
import { apiCouncil } from '../../api/api-env.js';
import { locate, taskByKey } from '../../api/api-tasks.js';
import { reportOrder } from '../../orders/orders.js';
import { defineOperation } from '../route.js';
import { reportStatusOf, reportTextOf } from '../../../core/api/api-schemas.js';

export const seedTaskResult = defineOperation({
  name: 'seed_task_result',
  description:
    'The agent API’s result report {status: completed | failed | in_progress, result?, errorMessage?} on the task sent with this taskId (or a Q-n / DISC id): reports on its orders as POST /tasks/{id}/result and answers {success}.',
  mutates: true,
  tool: false,
  http: { method: 'POST', path: '/agent/tasks/{taskId}/result' },
  // The agent API's body alone: its `status` is that API's (accepted, idle…) or absent, never Kaigi's HTTP status.
  bare: true,
  same_as: 'POST /tasks/{id}/result',
  roles: ['worker', 'coordinator', 'admin'],
  input: seedResultInput,
  output: seedResultAnswer,
  example: { status: 'completed', result: { called: true, notes: 'spoke with tanaka' } },
  handler: (input, ctx) => {
    const council = apiCouncil();
    // Kaigi's own ids are taken as they are; any other id is the taskId a client sent the task with.
    const own = TASK_ID.test(input.taskId) || DISCUSSION_ID.test(input.taskId);
    const found = own
      ? locate(council, input.taskId)
      : (() => {
          const item = taskByKey(council, ctx.caller.name, seedKey(input.taskId));
          return { item, discussion_id: String(item.payload?.discussion_id ?? '') };
        })();
    if (!found.discussion_id)
      throw new NotFoundError(`task ${input.taskId} has no discussion to report on`, 'task_not_found');
    // Who reported is the client the token belongs to, never a name in the body (as POST /tasks/{id}/result).
    reportOrder(
      council,
      {
        discussion_id: found.discussion_id,
        status: reportStatusOf(input.status),
        report: reportTextOf({ ...input, id: input.taskId }),
      },
      `api:${ctx.caller.name}`,
      // A worker reports on the orders that name it as executor; a coordinator or admin on any.
      ctx.caller.role === 'worker' ? ctx.caller.name : undefined,
    );
    return { success: true };
  },
});
