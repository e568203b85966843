// POST /tasks/{id}/result: an executor reports on the orders of a discussion.
import { reportResultInput, reportStatusOf, reportTextOf } from '../../../core/api/api-schemas.js';
import { NotFoundError } from '../../../core/errors.js';
import { apiCouncil } from '../../api/api-env.js';
import { locate } from '../../api/api-tasks.js';
import { reportOrder } from '../../orders/orders.js';
import { defineOperation } from '../route.js';

export const reportResult = defineOperation({
  name: 'report_result',
  description:
    'Report on the execution orders of a discussion (task id or DISC id): ACKNOWLEDGED, IN_PROGRESS, DONE or FAILED, with a report.',
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/tasks/{id}/result' },
  roles: ['worker', 'coordinator', 'admin'],
  input: reportResultInput,
  example: { status: 'DONE', report: 'Called tanaka; the follow-up is booked for Friday.' },
  handler: (input, ctx) => {
    const council = apiCouncil();
    const { discussion_id } = locate(council, input.id);
    if (!discussion_id) throw new NotFoundError(`task ${input.id} has no discussion to report on`, 'task_not_found');
    // Who reported is the client the token belongs to (`api:NAME`, as the audit names clients), never a name in the
    // body: reportOrder takes no `by`, so the third argument is what the audit and the transcript name.
    const r = reportOrder(
      council,
      { discussion_id, status: reportStatusOf(input.status), report: reportTextOf(input) },
      `api:${ctx.caller.name}`,
      // A worker reports on the orders that name it as executor; a coordinator or admin on any.
      ctx.caller.role === 'worker' ? ctx.caller.name : undefined,
    );
    return { success: true, ...r };
  },
});
