// POST /orders/{order_id}/report: an executor reports on one order by its id.
import { z } from '../../../core/zod.js';
import { ORDER_ID } from '../../../core/orders/order-report.js';
import { REPORT_STATUSES } from '../../../core/orders/order-status.js';
import { apiCouncil } from '../../api/api-env.js';
import { reportOrder } from '../../orders/orders.js';
import { defineOperation } from '../route.js';

const reportOrderInput = () =>
  z
    .object({
      order_id: z.string().regex(ORDER_ID, 'must look like DEC-YYYY-MM-DD-SEQ-An').describe('The order, DEC-…-A{n}'),
      status: z
        .enum(REPORT_STATUSES)
        .describe('Any step forward: PENDING → DONE records ACKNOWLEDGED and IN_PROGRESS as implied'),
      report: z.string().max(20000).optional().describe('What was done, as plain text'),
    })
    .strict();

export const reportOrderOp = defineOperation({
  name: 'report_order',
  description:
    'Report on one execution order by its id (DEC-…-A{n}): ACKNOWLEDGED, IN_PROGRESS, DONE or FAILED, any step forward, with a report. An order naming an API client as its executor is that client’s (or a coordinator’s) to report; the same status again is answered as it stands, writing nothing.',
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/orders/{order_id}/report' },
  roles: ['worker', 'coordinator', 'admin'],
  input: reportOrderInput,
  example: { status: 'DONE', report: 'Sent the summary to tanaka.' },
  // Who reported is the client the token belongs to, never a name in the body (strict input: `by` is refused).
  handler: (input, ctx) => {
    const r = reportOrder(
      apiCouncil(),
      { order_id: input.order_id, status: input.status, report: input.report ?? '' },
      `api:${ctx.caller.name}`,
      // A worker reports on the orders that name it as executor; a coordinator or admin on any.
      ctx.caller.role === 'worker' ? ctx.caller.name : undefined,
    );
    return { success: true, ...r };
  },
});
