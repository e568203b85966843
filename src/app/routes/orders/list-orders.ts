// GET /orders: the orders an outside executor pulls, by status, executor and member, oldest first, paginated.
import { z } from '../../../core/zod.js';
import { ORDER_STATUSES } from '../../../core/orders/order-status.js';
import { apiCouncil } from '../../api/api-env.js';
import { listOrders } from '../../orders/order-list.js';
import { limitInput, offsetInput } from '../rooms/inputs.js';
import { defineOperation } from '../route.js';

const listOrdersInput = () =>
  z
    .object({
      status: z.enum(ORDER_STATUSES).optional().describe('Only orders with this status, e.g. PENDING'),
      target: z.string().min(1).max(80).optional().describe('Only orders for this executor, e.g. buddy'),
      member: z.string().min(1).max(80).optional().describe('Only orders about this member (its member id)'),
      limit: limitInput().optional().describe('Orders to return, 1–500 (default 50)'),
      offset: offsetInput()
        .optional()
        .describe('Matching orders to skip, oldest first (default 0); next_offset says where the next page starts'),
    })
    .strict();

export const listOrdersOp = defineOperation({
  name: 'list_orders',
  description:
    'Lists execution orders oldest first, filtered by status (PENDING…), target (the executor) and member: order_id, discussion_id, member, action, review date and status; paginated by limit and offset (next_offset).',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/orders' },
  roles: ['worker', 'coordinator', 'admin'],
  input: listOrdersInput,
  example: { status: 'PENDING', target: 'buddy', limit: 50 },
  handler: (input) =>
    listOrders(apiCouncil(), {
      status: input.status,
      target: input.target,
      member: input.member,
      limit: input.limit ?? 50,
      offset: input.offset ?? 0,
    }),
});
